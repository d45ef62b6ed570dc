// Package csyntax is the C syntax that packages read without translating
// a program, built on engine/ctext (the one scanner of C text outside
// cc/v4) and not on cc/v4: Identifiers, Mentions, MacroUses and
// Enumerators over definitions' texts (diffslice; csyntax.go), and
// ParseExpr and ParseIntLiteral over the side-effect-free C expressions
// witnesses carry (engine/witness; cexpr.go), typed with the front end's
// conventions (engine/frontend: integer promotions and usual arithmetic
// conversions explicit).
package csyntax
