import type { FieldError } from '../common/validation/field-error';
import { checkStyle, type QrStyle } from '../rendering/style';
import { overlayStyle } from '../rendering/style/overlay-style';

/**
 * How a brand kit and a code's own style make the style a code is drawn with (docs/brand-kits.md),
 * pure. The kit's fields come first and the code's own override them, field by field (overlayStyle),
 * except that a code's own paint (color or gradient) replaces the kit's paint of that object whole:
 * a colour the code chose must not lose to a gradient the kit set.
 */

/** A kit as the renderer needs it: its style, frame and logo. */
export interface KitLook {
  style: Record<string, unknown>;
  frame: Record<string, unknown> | null;
  logo: string | null;
}

/** The option objects whose paint is a color or a gradient. */
const PAINTED = new Set(['dotsOptions', 'cornersSquareOptions', 'cornersDotOptions', 'backgroundOptions']);

/** The kit's look as one style: its frame as frameOptions, its logo as image. */
export function kitStyle(kit: KitLook): Record<string, unknown> {
  return { ...kit.style, ...(kit.frame && { frameOptions: kit.frame }), ...(kit.logo !== null && { image: kit.logo }) };
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The style a code is drawn with: the kit's (null: none) under the code's own (overlayStyle), a paint the code sets replacing the kit's. */
export function drawnStyle(kit: KitLook | null, own: Record<string, unknown>): Record<string, unknown> {
  if (!kit) return own;
  const base = kitStyle(kit);
  for (const key of PAINTED) {
    const mine = own[key];
    const under = base[key];
    if (isObject(mine) && isObject(under) && ('color' in mine || 'gradient' in mine)) {
      const { color: _color, gradient: _gradient, ...rest } = under;
      base[key] = rest;
    }
  }
  return overlayStyle(base, own) as Record<string, unknown>;
}

/**
 * The fields an enforced kit locks (its colours and its logo), as paths into a style: a code under
 * the kit may not set them to anything but the kit's own value.
 */
const LOCKED_PATHS: ReadonlyArray<readonly string[]> = [
  ...[...PAINTED].flatMap((object) => [
    [object, 'color'],
    [object, 'gradient'],
  ]),
  ['frameOptions', 'color'],
  ['frameOptions', 'textColor'],
  ['image'],
];

function valueAt(style: Record<string, unknown>, path: readonly string[]): unknown {
  let node: unknown = style;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return node;
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The locked fields a code's own style changes (sets to another value than the kit's), each named under `style.`. */
export function lockedFieldChanges(kit: KitLook & { name: string }, own: Record<string, unknown>, where: string): FieldError[] {
  const locked = kitStyle(kit);
  return LOCKED_PATHS.flatMap((path) => {
    const value = valueAt(own, path);
    if (value === undefined || sameValue(value, valueAt(locked, path))) return [];
    const field = ['style', ...path].join('.');
    return [{ field, message: `${field} is locked by the brand kit "${kit.name}", enforced ${where}` }];
  });
}

/** A kit carries its frame and logo in their own fields, not inside its style. */
export function kitStyleOverlap(style: Pick<QrStyle, 'frameOptions' | 'image'>): FieldError[] {
  const errors: FieldError[] = [];
  if (style.frameOptions !== undefined) errors.push({ field: 'style.frameOptions', message: 'style.frameOptions: give the frame as frame' });
  if (style.image !== undefined) errors.push({ field: 'style.image', message: 'style.image: give the logo as logo' });
  return errors;
}

/** A kit's own field for a style field's path: its frame and logo have fields of their own. */
function kitField(field: string): string {
  if (field === 'style.image' || field.startsWith('style.image.')) return `logo${field.slice('style.image'.length)}`;
  if (field === 'style.frameOptions' || field.startsWith('style.frameOptions.')) return `frame${field.slice('style.frameOptions'.length)}`;
  return field;
}

/**
 * A kit's look checked as a style (the style check: shape, then scannability, a kit that does not
 * scan refused), its errors named by the kit's fields (`frame.color`, `logo`).
 */
export function checkKitLook(kit: KitLook): FieldError[] {
  const overlap = kitStyleOverlap(kit.style);
  if (overlap.length > 0) return overlap;
  const check = checkStyle(kitStyle(kit));
  if (check.ok) return [];
  return check.errors.map((error) => {
    const field = kitField(error.field);
    return { field, message: error.message.startsWith(error.field) ? field + error.message.slice(error.field.length) : error.message };
  });
}
