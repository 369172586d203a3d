import { checkTemplateCanSend } from './template';

describe('template status', () => {
  it.each(['pending', 'rejected'] as const)('a %s template is not sent; the refusal names the status', (status) => {
    expect(checkTemplateCanSend(status)).toEqual({
      ok: false,
      error: { code: 'template_not_approved', templateStatus: status },
    });
  });

  it('an approved template is sent', () => {
    expect(checkTemplateCanSend('approved').ok).toBe(true);
  });
});
