/** One failed rule of a request, as it appears in the `errors` array of the error body (docs/errors.md). */
export interface FieldError {
  /** Path of the offending input, e.g. `content.url` or `style.dotsOptions.gradient.colorStops[1].color`. */
  field: string;
  message: string;
}
