import { acceptedFields } from '../../test/support/dto-fields';
import { UpdateQrCodeDto } from '../qrcodes/dto/update-qr-code.dto';
import { AUDITED_CODE_FIELD_NAMES } from './audited-code';

describe('audited code fields', () => {
  it('are every field of the update body (a field added to UpdateQrCodeDto is audited, or this fails)', () => {
    const fields = acceptedFields(UpdateQrCodeDto);
    expect(fields.length).toBeGreaterThanOrEqual(15);
    expect([...AUDITED_CODE_FIELD_NAMES].sort()).toEqual(fields);
  });
});
