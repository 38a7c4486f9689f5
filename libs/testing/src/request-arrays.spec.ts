import { describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES } from '@platform/common';
import { findUnboundedArrayFields } from '@platform/service';

// Every array field of a request DTO states its bound with @MaxItems(n): clients read it as the
// OpenAPI maxItems, and the validation pipe refuses a longer array before validating its items.
describe('bounded array fields', () => {
  it.each(SERVICE_NAMES)('every array field of a request of %s states MaxItems', async (name) => {
    const { AppModule } = (await import(`@platform/${name}/app-module`)) as { AppModule: new () => unknown };
    expect(findUnboundedArrayFields(AppModule)).toEqual([]);
  });
});
