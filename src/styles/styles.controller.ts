import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { CHECK_STYLE_EXAMPLES, CheckStyleDto, StyleCheckView } from './dto/check-style.dto';
import { StylesService } from './styles.service';

@ApiTags('styles')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/styles')
export class StylesController {
  constructor(private readonly styles: StylesService) {}

  @Post('check')
  @RequiredScope('qrcodes:read')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'checkStyle',
    summary: 'Check a style before using it',
    description:
      'Answers the verdict create, bulk create and update reach for this style (accepted, or the field errors they would ' +
      'answer with 400), with the measurements behind it: contrast, logo coverage against the error correction budget, the ' +
      'effective level, the quiet zone, the smallest image size at which the shapes are drawn as they are, and the scannable ' +
      'defaults applied to unset fields. A refused style is still a 200 here; only a malformed request body is a 400.',
  })
  @ApiJsonBody(CheckStyleDto, CHECK_STYLE_EXAMPLES)
  @ApiOkResponse({ type: StyleCheckView, description: 'The verdict and the measurements' })
  @ApiErrorResponses({
    400: {
      description: 'No style object, or content_length or type out of range',
      message: 'Validation failed: content_length must not be greater than 2953',
      errors: [{ field: 'content_length', message: 'content_length must not be greater than 2953' }],
    },
    ...JSON_BODY_ERRORS,
  })
  check(@Body() body: CheckStyleDto) {
    return this.styles.check(body);
  }
}
