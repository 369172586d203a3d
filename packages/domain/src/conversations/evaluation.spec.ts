import { evaluatedConversationVariables } from './evaluation';

describe('evaluatedConversationVariables', () => {
  const on = { enabled: true, fieldNames: ['customer_name', 'order_id'] };

  it('is {} when the assistant does not evaluate', () => {
    expect(
      evaluatedConversationVariables(
        { enabled: false, fieldNames: ['customer_name'] },
        { customer_name: 'Ann', status: true },
      ),
    ).toEqual({});
  });

  it('keeps exactly the schema fields, status and summary of what the evaluator produced', () => {
    expect(
      evaluatedConversationVariables(on, {
        customer_name: 'Ann',
        invented: 'x',
        status: true,
        summary: 'Asked about delivery.',
      }),
    ).toEqual({
      customer_name: 'Ann',
      order_id: null,
      status: true,
      summary: 'Asked about delivery.',
    });
  });

  it('says status true only for true, and a summary only as a string', () => {
    expect(evaluatedConversationVariables(on, { status: 'yes', summary: 42 })).toEqual({
      customer_name: null,
      order_id: null,
      status: false,
      summary: '',
    });
  });

  it('claims nothing when nothing was evaluated', () => {
    expect(evaluatedConversationVariables(on, null)).toEqual({
      customer_name: null,
      order_id: null,
      status: false,
      summary: '',
    });
  });
});
