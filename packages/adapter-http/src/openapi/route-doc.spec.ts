import 'reflect-metadata';
import { Controller, Get, Post } from '@inversifyjs/http-core';
import { Doc, documentedRoutes, Undocumented } from './route-doc';

@Controller('/api/user/widgets')
class WidgetController {
  @Doc({ summary: 'List widgets', tag: 'Widgets' })
  @Get('/')
  list() {}

  @Doc({ summary: 'Fold a widget', tag: 'Widgets', success: 202 })
  @Post('/:id/fold')
  fold() {}
}

@Controller('/api/user/gadgets')
class GadgetController {
  @Get('/:id')
  get() {}
}

@Undocumented('a page for a browser')
@Controller('/pages')
class PageController {
  @Get('/')
  show() {}
}

describe('documentedRoutes', () => {
  it('takes method and full path from the routing decorators and the rest from @Doc, for mounted controllers only', () => {
    expect(documentedRoutes((c) => c === WidgetController)).toEqual([
      { method: 'get', path: '/api/user/widgets', summary: 'List widgets', tag: 'Widgets' },
      { method: 'post', path: '/api/user/widgets/:id/fold', summary: 'Fold a widget', tag: 'Widgets', success: 202 },
    ]);
  });

  it('refuses a mounted handler without @Doc, and leaves out a controller marked undocumented', () => {
    expect(() => documentedRoutes((c) => c === GadgetController)).toThrow('GadgetController.get has no @Doc');
    expect(documentedRoutes((c) => c === PageController)).toEqual([]);
  });
});
