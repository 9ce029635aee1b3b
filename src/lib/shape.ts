// What a response holds, as plain data, and its check as a plain function: no zod. The lists a
// command prints check their pages with these, so a run that goes well never loads zod (its core
// and the schemas cost ~20 ms of every start). A page that fails the check goes through the zod
// schema built from the same shape (schemaOf in schemas.ts), whose issues name what is wrong.
// shapeOf() there reads a schema back into a shape: plainCheck uses it for the schemas written in
// zod, and a unit test checks that it gives back every shape schemaOf was given.

/** One value's kind. Objects are loose: fields beyond those named pass, as in every schema. */
export type Shape =
  | 'string'
  | 'boolean'
  | 'unknown'
  /** A safe integer (zod's int). */
  | 'int'
  /** A finite number. */
  | 'number'
  /** Exactly this string. */
  | { literal: string }
  | { optional: Shape }
  | { nullable: Shape }
  | { array: Shape }
  | { union: readonly Shape[] }
  /** An object with string keys, any number of them, each value of this shape. */
  | { record: Shape }
  | { object: { readonly [field: string]: Shape } };

/**
 * What a value of the shape is, as a TypeScript type. An object's type names only the fields its
 * shape names, so that a misspelt field (`a.contry`) does not compile; more may come at run time
 * (objects are loose, like the checks), and code that reads fields by name from the service's data
 * takes it as a `Record<string, unknown>`. Shapes declared `as const` keep their literal types.
 */
export type ShapeType<S> = S extends 'string'
  ? string
  : S extends 'boolean'
    ? boolean
    : S extends 'int' | 'number'
      ? number
      : S extends 'unknown'
        ? unknown
        : S extends { literal: infer L }
          ? L
          : S extends { optional: infer I }
            ? ShapeType<I> | undefined
            : S extends { nullable: infer I }
              ? ShapeType<I> | null
              : S extends { array: infer I }
                ? ShapeType<I>[]
                : S extends { union: readonly (infer I)[] }
                  ? ShapeType<I>
                  : S extends { record: infer I }
                    ? Record<string, ShapeType<I>>
                    : S extends { object: infer O }
                      ? ObjectType<O>
                      : never;

type ObjectType<O> = { [K in keyof O as O[K] extends { optional: unknown } ? never : K]: ShapeType<O[K]> } & {
  [K in keyof O as O[K] extends { optional: unknown } ? K : never]?: ShapeType<O[K]>;
};

export type Check = (value: unknown) => boolean;

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of `from` whose keys are only data: no prototype, so a key named `__proto__`,
 * `constructor` or `prototype` (a profile name, a field the service sent) is stored and read like
 * any other, never one of Object.prototype's.
 */
export function keyedByText<T>(from: Readonly<Record<string, T>> = {}): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

const checks = new WeakMap<object, Check>();

/** The check of a shape (made once per shape object). */
export function checkOf(shape: Shape): Check {
  if (typeof shape === 'string') return SCALARS[shape];
  let check = checks.get(shape);
  if (!check) {
    check = build(shape);
    checks.set(shape, check);
  }
  return check;
}

const SCALARS: Record<Extract<Shape, string>, Check> = {
  string: (value) => typeof value === 'string',
  boolean: (value) => typeof value === 'boolean',
  unknown: () => true,
  int: (value) => Number.isSafeInteger(value),
  number: (value) => Number.isFinite(value),
};

function build(shape: Exclude<Shape, string>): Check {
  if ('literal' in shape) {
    const literal = shape.literal;
    return (value) => value === literal;
  }
  if ('optional' in shape) {
    const check = checkOf(shape.optional);
    return (value) => value === undefined || check(value);
  }
  if ('nullable' in shape) {
    const check = checkOf(shape.nullable);
    return (value) => value === null || check(value);
  }
  if ('array' in shape) {
    const check = checkOf(shape.array);
    return (value) => Array.isArray(value) && value.every(check);
  }
  if ('union' in shape) {
    const options = shape.union.map(checkOf);
    return (value) => options.some((check) => check(value));
  }
  if ('record' in shape) {
    const check = checkOf(shape.record);
    return (value) => isPlainObject(value) && Object.values(value).every(check);
  }
  const fields = Object.entries(shape.object).map(([key, field]) => [key, checkOf(field)] as const);
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const [key, check] of fields) if (!check(value[key])) return false;
    return true;
  };
}

/** A list as the service may send it: a plain array of records, or the paged envelope of them. */
export function listShape(item: Shape): Shape {
  return {
    union: [{ array: item }, { object: { items: { array: item }, total_count: 'int', page: 'int', per_page: 'int' } }],
  };
}
