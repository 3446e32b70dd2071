// A compile-time check that two types say the same (each assignable to the other): where a zod schema and the
// interface it checks are both written out, `const same: Same<z.infer<typeof S>, I> = true` fails to compile when
// they drift apart.
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
