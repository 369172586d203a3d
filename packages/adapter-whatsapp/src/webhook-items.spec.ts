import {
  inboundMessages,
  METADATA,
  notification,
  PHONE_NUMBER_ID,
  WABA_ID,
} from '@voiceplane/stand-ins/whatsapp/webhook-fixtures';
import { whatsappWebhookItems } from './webhook-items';

/** Meta's webhook notifications (shapes of the Graph API reference) as ingress items. */

const at = (seconds: number) => new Date(seconds * 1000);

describe('WhatsApp webhook items', () => {
  it('reads a text message with the customer name from contacts', () => {
    const items = whatsappWebhookItems(
      inboundMessages([
        {
          from: '16505551234',
          id: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
          timestamp: '1749416383',
          type: 'text',
          text: { body: 'Does it come in another color?' },
        },
      ]),
    );
    expect(items).toEqual([
      {
        kind: 'customer_message',
        providerItemId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
        providerSenderRef: PHONE_NUMBER_ID,
        customerPhone: '+16505551234',
        customerName: 'Sheena Nelson',
        text: 'Does it come in another color?',
        media: null,
        receivedAt: at(1749416383),
      },
    ]);
  });

  it('reads image, audio, video and document messages by media id, captions included', () => {
    const items = whatsappWebhookItems(
      inboundMessages([
        {
          from: '16505551234',
          id: 'wamid.img',
          timestamp: '1749416383',
          type: 'image',
          image: { caption: 'This one', mime_type: 'image/jpeg', sha256: 'abc=', id: '1003383421387256' },
        },
        {
          from: '16505551234',
          id: 'wamid.aud',
          timestamp: '1749416384',
          type: 'audio',
          audio: { mime_type: 'audio/ogg; codecs=opus', sha256: 'def=', id: '1003383421387257', voice: true },
        },
        {
          from: '16505551234',
          id: 'wamid.vid',
          timestamp: '1749416385',
          type: 'video',
          video: { mime_type: 'video/mp4', sha256: 'ghi=', id: '1003383421387258' },
        },
        {
          from: '16505551234',
          id: 'wamid.doc',
          timestamp: '1749416386',
          type: 'document',
          document: {
            caption: 'Invoice',
            filename: 'invoice.pdf',
            mime_type: 'application/pdf',
            sha256: 'jkl=',
            id: '1003383421387259',
          },
        },
      ]),
    );
    expect(items.map((i) => (i.kind === 'customer_message' ? [i.providerItemId, i.text, i.media] : null))).toEqual([
      ['wamid.img', 'This one', { mediaType: 'image', providerMediaId: '1003383421387256', caption: 'This one' }],
      ['wamid.aud', null, { mediaType: 'audio', providerMediaId: '1003383421387257', caption: null }],
      ['wamid.vid', null, { mediaType: 'video', providerMediaId: '1003383421387258', caption: null }],
      ['wamid.doc', 'Invoice', { mediaType: 'document', providerMediaId: '1003383421387259', caption: 'Invoice' }],
    ]);
  });

  it('ignores reactions and what the product does not take in, keeps button answers as text', () => {
    const items = whatsappWebhookItems(
      inboundMessages([
        {
          from: '16505551234',
          id: 'wamid.r',
          timestamp: '1749416383',
          type: 'reaction',
          reaction: { message_id: 'wamid.out', emoji: '\uD83D\uDC4D' },
        },
        {
          from: '16505551234',
          id: 'wamid.l',
          timestamp: '1749416383',
          type: 'location',
          location: { latitude: 1, longitude: 2 },
        },
        {
          from: '16505551234',
          id: 'wamid.u',
          timestamp: '1749416383',
          type: 'unsupported',
          errors: [{ code: 131051, title: 'Message type unknown' }],
        },
        {
          from: '16505551234',
          id: 'wamid.b',
          timestamp: '1749416383',
          type: 'button',
          button: { payload: 'STOP', text: 'Stop promotions' },
        },
        {
          from: '16505551234',
          id: 'wamid.i',
          timestamp: '1749416383',
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes please' } },
        },
      ]),
    );
    expect(items.map((i) => [i.providerItemId, i.kind === 'customer_message' ? i.text : null])).toEqual([
      ['wamid.b', 'Stop promotions'],
      ['wamid.i', 'Yes please'],
    ]);
  });

  it('reads a call-permission reply: accepted temporarily with its expiry, or rejected', () => {
    const items = whatsappWebhookItems(
      inboundMessages([
        {
          from: '16505551234',
          id: 'wamid.cp1',
          timestamp: '1747659443',
          type: 'interactive',
          interactive: {
            type: 'call_permission_reply',
            call_permission_reply: {
              response: 'accept',
              is_permanent: false,
              expiration_timestamp: 1748264243,
              response_source: 'user_action',
            },
          },
        },
        {
          from: '16505551234',
          id: 'wamid.cp2',
          timestamp: '1747659450',
          type: 'interactive',
          interactive: {
            type: 'call_permission_reply',
            call_permission_reply: { response: 'reject', response_source: 'user_action' },
          },
        },
        {
          from: '16505551234',
          id: 'wamid.cp3',
          timestamp: '1747659460',
          type: 'interactive',
          interactive: {
            type: 'call_permission_reply',
            call_permission_reply: { response: 'accept', is_permanent: true },
          },
        },
      ]),
    );
    expect(items).toEqual([
      {
        kind: 'call_permission_reply',
        providerItemId: 'wamid.cp1',
        providerSenderRef: PHONE_NUMBER_ID,
        customerPhone: '+16505551234',
        response: 'accept',
        isPermanent: false,
        expiresAt: at(1748264243),
        at: at(1747659443),
      },
      {
        kind: 'call_permission_reply',
        providerItemId: 'wamid.cp2',
        providerSenderRef: PHONE_NUMBER_ID,
        customerPhone: '+16505551234',
        response: 'reject',
        isPermanent: false,
        expiresAt: null,
        at: at(1747659450),
      },
      {
        kind: 'call_permission_reply',
        providerItemId: 'wamid.cp3',
        providerSenderRef: PHONE_NUMBER_ID,
        customerPhone: '+16505551234',
        response: 'accept',
        isPermanent: true,
        expiresAt: null,
        at: at(1747659460),
      },
    ]);
  });

  it('reads delivery statuses, one item per message and status, with the failure reason', () => {
    const items = whatsappWebhookItems(
      notification('messages', {
        messaging_product: 'whatsapp',
        metadata: METADATA,
        statuses: [
          {
            id: 'wamid.out1',
            status: 'delivered',
            timestamp: '1750263773',
            recipient_id: '16505551234',
            conversation: { id: '6ceb9d929c9bdc4f90e967a32f8639b4', origin: { type: 'service' } },
            pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
          },
          { id: 'wamid.out1', status: 'read', timestamp: '1750263790', recipient_id: '16505551234' },
          {
            id: 'wamid.out2',
            status: 'failed',
            timestamp: '1750263800',
            recipient_id: '16505551234',
            errors: [
              {
                code: 131047,
                title: 'Re-engagement message',
                message: 'Re-engagement message',
                error_data: {
                  details:
                    'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
                },
              },
            ],
          },
          { id: 'wamid.out3', status: 'deleted', timestamp: '1750263801', recipient_id: '16505551234' },
        ],
      }),
    );
    expect(items).toEqual([
      {
        kind: 'message_status',
        providerItemId: 'wamid.out1:delivered',
        providerMessageId: 'wamid.out1',
        status: 'delivered',
        at: at(1750263773),
        errorCode: null,
        errorMessage: null,
      },
      {
        kind: 'message_status',
        providerItemId: 'wamid.out1:read',
        providerMessageId: 'wamid.out1',
        status: 'read',
        at: at(1750263790),
        errorCode: null,
        errorMessage: null,
      },
      {
        kind: 'message_status',
        providerItemId: 'wamid.out2:failed',
        providerMessageId: 'wamid.out2',
        status: 'failed',
        at: at(1750263800),
        errorCode: '131047',
        errorMessage:
          'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      },
    ]);
  });

  it('maps template status updates: APPROVED, PENDING, and REJECTED / DISABLED / PAUSED with their reason', () => {
    const update = (event: string, reason: string | null, extra: object = {}) =>
      whatsappWebhookItems(
        notification(
          'message_template_status_update',
          {
            event,
            message_template_id: 806312974732579,
            message_template_name: 'order_update',
            message_template_language: 'en_US',
            reason,
            ...extra,
          },
          1739321024,
        ),
      );
    expect(update('APPROVED', 'NONE')).toEqual([
      {
        kind: 'template_status',
        providerItemId: 'template:806312974732579:APPROVED:1739321024',
        providerTemplateRef: '806312974732579',
        status: 'approved',
        rejectionReason: null,
      },
    ]);
    expect(update('PENDING', null)[0]).toEqual(expect.objectContaining({ status: 'pending', rejectionReason: null }));
    expect(
      update('REJECTED', 'INVALID_FORMAT', {
        rejection_info: {
          reason: "Variables can't be at the start or end of the template.",
          recommendation: 'Add text.',
        },
      })[0],
    ).toEqual(
      expect.objectContaining({
        status: 'rejected',
        rejectionReason: "Variables can't be at the start or end of the template.",
      }),
    );
    expect(update('REJECTED', 'PROMOTIONAL')[0]).toEqual(
      expect.objectContaining({ status: 'rejected', rejectionReason: 'PROMOTIONAL' }),
    );
    expect(update('DISABLED', 'NONE', { disable_info: { disable_date: '1751234563' } })[0]).toEqual(
      expect.objectContaining({ status: 'rejected', rejectionReason: 'DISABLED' }),
    );
    expect(update('PAUSED', null)[0]).toEqual(
      expect.objectContaining({ status: 'rejected', rejectionReason: 'PAUSED' }),
    );
    expect(update('IN_APPEAL', null)).toEqual([]);
  });

  it('reads number updates as reach (quality, tier → limit) and account updates as the status of every sender of the account', () => {
    const number = (event: string, limit?: string) =>
      whatsappWebhookItems(
        notification(
          'phone_number_quality_update',
          { display_phone_number: '15550783881', event, ...(limit ? { current_limit: limit } : {}) },
          1748454394,
        ),
      );
    expect(number('ONBOARDING', 'TIER_2K')).toEqual([
      {
        kind: 'sender_reach',
        providerItemId: 'number:+15550783881:ONBOARDING:1748454394',
        providerSenderRef: '+15550783881',
        reach: { qualityRating: null, messagingLimit: { value: 2000 } },
      },
    ]);
    expect(number('FLAGGED', 'TIER_250')[0]).toEqual(
      expect.objectContaining({ reach: { qualityRating: 'RED', messagingLimit: { value: 250 } } }),
    );
    expect(number('UNFLAGGED')[0]).toEqual(
      expect.objectContaining({ reach: { qualityRating: 'GREEN', messagingLimit: null } }),
    );
    expect(number('UPGRADE', 'TIER_UNLIMITED')[0]).toEqual(
      expect.objectContaining({ reach: { qualityRating: null, messagingLimit: { value: null } } }),
    );
    expect(number('UPGRADE', 'TIER_SOMETHING')).toEqual([]);
    // A quality event never says the number is connected or not: an event without news yields nothing.
    expect(number('THROUGHPUT_UPGRADE')).toEqual([]);
    const account = (value: object) => whatsappWebhookItems(notification('account_update', value, 1743451903));
    expect(account({ event: 'ACCOUNT_DELETED' })).toEqual([
      {
        kind: 'account_status',
        providerItemId: `account:${WABA_ID}:ACCOUNT_DELETED::1743451903`,
        providerAccountRef: WABA_ID,
        status: 'offline',
      },
    ]);
    expect(
      account({
        event: 'DISABLED_UPDATE',
        ban_info: { waba_ban_state: 'DISABLE', waba_ban_date: 'April 17, 2025' },
      })[0],
    ).toEqual(expect.objectContaining({ status: 'offline' }));
    expect(
      account({
        event: 'DISABLED_UPDATE',
        ban_info: { waba_ban_state: 'REINSTATE', waba_ban_date: 'April 17, 2025' },
      })[0],
    ).toEqual(expect.objectContaining({ status: 'online' }));
    expect(
      account({ event: 'PARTNER_ADDED', waba_info: { waba_id: WABA_ID, owner_business_id: '2329417887457253' } }),
    ).toEqual([]);
  });

  it('reads call connect and terminate events', () => {
    const items = whatsappWebhookItems(
      notification('calls', {
        messaging_product: 'whatsapp',
        metadata: METADATA,
        calls: [
          {
            id: 'wacid.ABGGFjFVU2AfAgo6V',
            to: '16315553601',
            from: '15550783881',
            event: 'connect',
            timestamp: '1671644824',
            direction: 'BUSINESS_INITIATED',
            session: { sdp_type: 'answer', sdp: 'v=0' },
          },
          {
            id: 'wacid.ABGGFjFVU2AfAgo6V',
            to: '16315553601',
            from: '15550783881',
            event: 'terminate',
            direction: 'BUSINESS_INITIATED',
            timestamp: '1671644944',
            status: 'COMPLETED',
            start_time: '1671644824',
            end_time: '1671644944',
            duration: 120,
          },
        ],
      }),
    );
    expect(items).toEqual([
      {
        kind: 'call_event',
        providerItemId: 'wacid.ABGGFjFVU2AfAgo6V:connect',
        providerSenderRef: PHONE_NUMBER_ID,
        providerCallId: 'wacid.ABGGFjFVU2AfAgo6V',
        event: 'connect',
        at: at(1671644824),
        customerPhone: '+16315553601',
        status: null,
        duration: null,
      },
      {
        kind: 'call_event',
        providerItemId: 'wacid.ABGGFjFVU2AfAgo6V:terminate',
        providerSenderRef: PHONE_NUMBER_ID,
        providerCallId: 'wacid.ABGGFjFVU2AfAgo6V',
        event: 'terminate',
        at: at(1671644944),
        customerPhone: '+16315553601',
        status: 'completed',
        duration: 120,
      },
    ]);
  });

  it('names the customer by the direction of the call, and keeps a duration only when it is whole seconds', () => {
    const items = whatsappWebhookItems(
      notification('calls', {
        messaging_product: 'whatsapp',
        metadata: METADATA,
        calls: [
          {
            id: 'wacid.IN',
            to: '15550783881',
            from: '16505551234',
            event: 'terminate',
            direction: 'USER_INITIATED',
            timestamp: '1671644944',
            status: 'FAILED',
            duration: 'x',
          },
          { id: 'wacid.NONE', event: 'connect', timestamp: '1671644824' },
        ],
      }),
    );
    expect(items.map((i) => i.kind === 'call_event' && [i.customerPhone, i.status, i.duration])).toEqual([
      ['+16505551234', 'failed', null],
      [null, null, null],
    ]);
  });

  it('yields nothing for other objects, unknown fields and malformed parts', () => {
    expect(whatsappWebhookItems({ object: 'page', entry: [] })).toEqual([]);
    expect(whatsappWebhookItems(null)).toEqual([]);
    expect(whatsappWebhookItems([1, 2])).toEqual([]);
    expect(whatsappWebhookItems({ object: 'whatsapp_business_account', entry: 'x' })).toEqual([]);
    expect(
      whatsappWebhookItems(
        notification('message_template_quality_update', { new_quality_score: 'GREEN', message_template_id: 1 }),
      ),
    ).toEqual([]);
    expect(
      whatsappWebhookItems(
        inboundMessages([{ id: 'wamid.x', type: 'text', text: { body: 'no sender or time' } }, 'junk', null]),
      ),
    ).toEqual([]);
  });

  describe('hostile fields in a signed notification (refused alone, or kept as storable text)', () => {
    const message = (over: Record<string, unknown>) => ({
      from: '16505551234',
      id: 'wamid.ok',
      timestamp: '1749416383',
      type: 'text',
      text: { body: 'Hi' },
      ...over,
    });

    it('refuses only the items whose ids or number cannot be stored, and keeps the others', () => {
      const items = whatsappWebhookItems(
        inboundMessages([
          message({ id: 'wamid.nul\u0000' }),
          message({ id: 'wamid.\ud800' }),
          message({ id: `wamid.${'x'.repeat(600)}` }),
          message({ id: 'wamid.long-from', from: '1'.repeat(300) }),
          message({ id: 'wamid.short-from', from: '12' }),
          message({ id: 'wamid.media', type: 'image', image: { id: 'media\u0000id' } }),
          message({ id: 'wamid.kept' }),
        ]),
      );
      expect(items.map((i) => i.providerItemId)).toEqual(['wamid.kept']);
    });

    it('keeps a text, caption or name with unsafe characters, replaced, and cuts it to what is stored', () => {
      const notification = inboundMessages([
        message({ id: 'wamid.text', text: { body: 'a\u0000b\ud800c' } }),
        message({
          id: 'wamid.caption',
          type: 'image',
          image: { id: '1003383421387256', caption: `${'y'.repeat(5000)}` },
        }),
      ]) as { entry: { changes: { value: { contacts: { profile: { name: string } }[] } }[] }[] };
      notification.entry[0].changes[0].value.contacts[0].profile.name = `N\u0000${'n'.repeat(10_000)}`;
      const items = whatsappWebhookItems(notification);
      expect(items).toHaveLength(2);
      const [text, caption] = items as Extract<(typeof items)[number], { kind: 'customer_message' }>[];
      expect(text.text).toBe('a\uFFFDb\uFFFDc');
      expect(text.customerName).toHaveLength(255);
      expect(text.customerName!.startsWith('N\uFFFDnnn')).toBe(true);
      expect(caption.text).toHaveLength(4096);
    });

    it('cuts a surrogate pair split by the cut into a replacement character, never half a pair', () => {
      const name = `${'n'.repeat(254)}😀`;
      const notification = inboundMessages([message({ id: 'wamid.pair' })]) as {
        entry: { changes: { value: { contacts: { profile: { name: string } }[] } }[] }[];
      };
      notification.entry[0].changes[0].value.contacts[0].profile.name = name;
      const [item] = whatsappWebhookItems(notification) as Extract<
        ReturnType<typeof whatsappWebhookItems>[number],
        { kind: 'customer_message' }
      >[];
      expect(item.customerName).toBe(`${'n'.repeat(254)}\uFFFD`);
    });

    it('refuses a status, call or template event whose id cannot be stored; an over-long error is cut', () => {
      const statuses = whatsappWebhookItems(
        notification('messages', {
          messaging_product: 'whatsapp',
          metadata: METADATA,
          statuses: [
            { id: 'wamid.\u0000', status: 'delivered', timestamp: '1749416383', recipient_id: '16505551234' },
            {
              id: 'wamid.failed',
              status: 'failed',
              timestamp: '1749416383',
              recipient_id: '16505551234',
              errors: [{ code: 'c'.repeat(100), title: 't'.repeat(3000) }],
            },
          ],
        }),
      );
      expect(statuses).toEqual([
        expect.objectContaining({
          providerMessageId: 'wamid.failed',
          errorCode: 'c'.repeat(64),
          errorMessage: 't'.repeat(1024),
        }),
      ]);
      expect(
        whatsappWebhookItems(
          notification('calls', {
            metadata: METADATA,
            calls: [{ id: `wacid.${'x'.repeat(200)}`, event: 'connect', timestamp: '1749416383' }],
          }),
        ),
      ).toEqual([]);
      expect(
        whatsappWebhookItems(
          notification(
            'message_template_status_update',
            { event: 'APPROVED', message_template_id: 'tpl\u0000' },
            1749416383,
          ),
        ),
      ).toEqual([]);
    });
  });
});
