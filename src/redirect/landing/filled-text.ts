/** Whether an optional text field of a code's content has something to show (blank counts as absent). */
export function isFilled(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== '';
}
