import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own schema compilers (ajv for what comes in, fast-json-stringify for the answers),
 * each route's schema compiled the first time the route is used instead of at start. A profile
 * of a restart put 14% of its CPU in compiling the schemas of every route, most of which a
 * server never answers in its first minutes; now a start compiles none, and a route's first
 * request pays for its own (a few milliseconds). The same compilers with the same options, so
 * what is refused and how answers are written do not change; `eager` (the tests) compiles every
 * route's at start, as before, so a schema that cannot compile is found there.
 */

type Validate = ((data: unknown) => unknown) & { errors?: unknown };
type Compile<R, F> = (route: R) => F;

/** A validator compiled on its first use, its errors where fastify reads them (on the function). */
function lazyValidator<R>(compile: Compile<R, Validate>): Compile<R, Validate> {
  return (route) => {
    let real: Validate | undefined;
    const validate: Validate = (data) => {
      real ??= compile(route);
      const ok = real(data);
      validate.errors = real.errors;
      return ok;
    };
    return validate;
  };
}

/** A serializer compiled on its first use. */
function lazySerializer<R>(compile: Compile<R, (doc: unknown) => string>): Compile<R, (doc: unknown) => string> {
  return (route) => {
    let real: ((doc: unknown) => string) | undefined;
    return (doc) => (real ??= compile(route))(doc);
  };
}

/** The `schemaController` option of a fastify server: the default compilers, lazily, unless `eager`. */
export function schemaController(eager = false): { compilersFactory: { buildValidator: unknown; buildSerializer: unknown } } | undefined {
  if (eager) return undefined;
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  return {
    compilersFactory: {
      buildValidator: (...args: Parameters<typeof validators>) => lazyValidator(validators(...args) as Compile<unknown, Validate>),
      buildSerializer: (...args: Parameters<typeof serializers>) => lazySerializer(serializers(...args) as Compile<unknown, (doc: unknown) => string>),
    },
  };
}
