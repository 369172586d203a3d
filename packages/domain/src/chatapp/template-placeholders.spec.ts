import { parseTemplatePlaceholders, renderTemplate } from './template-placeholders';

describe('template placeholders', () => {
  it.each([
    ['Hi {{1}}, your order {{2}} has shipped.', 'positional', ['1', '2']],
    ['{{2}} then {{1}} then {{2}}', 'positional', ['2', '1']],
    ['Hi {{customer_name}}, order {{order_id}} for {{customer_name}}', 'named', ['customer_name', 'order_id']],
    ['Hi {{name2}}', 'named', ['name2']],
    ['No placeholders { here } or {single}', 'none', []],
    ['{{{1}}}', 'positional', ['1']],
  ])('%s → %s %p', (body, style, variables) => {
    expect(parseTemplatePlaceholders(body)).toEqual({ ok: true, value: { style, variables } });
  });

  it('mixing positional and named is refused', () => {
    expect(parseTemplatePlaceholders('Hi {{1}}, order {{order_id}}')).toEqual({
      ok: false,
      error: { code: 'placeholders_mixed' },
    });
  });

  it.each(['{{Name}}', '{{ 1 }}', '{{}}', '{{0}}', '{{01}}', '{{first-name}}', '{{_x}}', '{{1a}}'])(
    '%s is not a valid placeholder',
    (placeholder) => {
      expect(parseTemplatePlaceholders(`Hi ${placeholder}`)).toEqual({
        ok: false,
        error: { code: 'placeholder_invalid', placeholder },
      });
    },
  );

  it('positional numbers must be 1…n without gaps', () => {
    expect(parseTemplatePlaceholders('{{1}} {{3}} {{5}}')).toEqual({
      ok: false,
      error: { code: 'placeholders_not_consecutive', missing: ['2', '4'] },
    });
    expect(parseTemplatePlaceholders('{{2}}')).toEqual({
      ok: false,
      error: { code: 'placeholders_not_consecutive', missing: ['1'] },
    });
  });
});

describe('template rendering and TEMPLATE_VARIABLES_MISSING', () => {
  const positional = 'Hi {{1}}, your order {{2}} has shipped.';

  it('renders positional values', () => {
    expect(renderTemplate(positional, ['1', '2'], { 1: 'Ann', 2: 'A-1001' })).toEqual({
      ok: true,
      value: 'Hi Ann, your order A-1001 has shipped.',
    });
  });

  it('numbers and booleans are stringified; unknown keys ignored', () => {
    expect(renderTemplate(positional, ['1', '2'], { 1: true, 2: 1001, 3: 'x', other: 'y' })).toEqual({
      ok: true,
      value: 'Hi true, your order 1001 has shipped.',
    });
  });

  it('names the missing variables in the template order', () => {
    expect(renderTemplate(positional, ['1', '2'], { 1: 'Ann' })).toEqual({
      ok: false,
      error: { code: 'template_variables_missing', missing: ['2'] },
    });
    expect(renderTemplate(positional, ['1', '2'], {})).toEqual({
      ok: false,
      error: { code: 'template_variables_missing', missing: ['1', '2'] },
    });
  });

  it('null, empty and blank values are missing', () => {
    expect(renderTemplate(positional, ['1', '2'], { 1: null, 2: '  ' })).toEqual({
      ok: false,
      error: { code: 'template_variables_missing', missing: ['1', '2'] },
    });
    expect(renderTemplate(positional, ['1', '2'], { 1: '', 2: 'x' })).toEqual({
      ok: false,
      error: { code: 'template_variables_missing', missing: ['1'] },
    });
  });

  it('renders named values, repeated placeholders included', () => {
    const body = 'Hi {{customer_name}}, order {{order_id}}, {{customer_name}}!';
    expect(renderTemplate(body, ['customer_name', 'order_id'], { customer_name: 'Ann', order_id: 'A-1' })).toEqual({
      ok: true,
      value: 'Hi Ann, order A-1, Ann!',
    });
  });

  it('a named variable may be given by its position; the name wins', () => {
    const body = 'Hi {{customer_name}}, order {{order_id}}';
    expect(renderTemplate(body, ['customer_name', 'order_id'], { 1: 'Ann', 2: 'A-1', order_id: 'B-2' })).toEqual({
      ok: true,
      value: 'Hi Ann, order B-2',
    });
  });

  it('positions are not aliases in a positional template whose first placeholder is {{2}}', () => {
    expect(renderTemplate('{{2}} {{1}}', ['2', '1'], { 1: 'a', 2: 'b' })).toEqual({ ok: true, value: 'b a' });
  });

  it('a value containing a placeholder is not expanded again', () => {
    expect(renderTemplate(positional, ['1', '2'], { 1: '{{2}}', 2: 'X' })).toEqual({
      ok: true,
      value: 'Hi {{2}}, your order X has shipped.',
    });
  });

  it('a variable named like an Object.prototype member is missing unless given', () => {
    expect(renderTemplate('{{constructor}}', ['constructor'], {})).toEqual({
      ok: false,
      error: { code: 'template_variables_missing', missing: ['constructor'] },
    });
  });

  it('no variables: the body as it is', () => {
    expect(renderTemplate('Hello there', [], { 1: 'x' })).toEqual({ ok: true, value: 'Hello there' });
  });
});
