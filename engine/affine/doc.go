// Package affine computes the affine equalities among a function's
// integer variables at its loop heads (x + j == y + i, res + cnt == a + b):
// Karr's analysis (M. Karr, "Affine relationships among variables of a
// program", Acta Informatica 6, 1976), in the generator form of
// Müller-Olm and Seidl ("A note on Karr's algorithm", ICALP 2004): the
// set of states reaching a location is over-approximated by its affine
// hull, kept as a point and a basis of directions over the rationals.
//
// The equalities are candidates, not facts: the analysis reads the
// program's integer arithmetic over the rationals, ignores branch
// conditions, and models neither overflow nor casts between widths, so
// whoever uses an equality must check it (engine/kinduction keeps only
// the candidates its Houdini search proves inductive, bit-precisely).
// For + and - and multiplication by a constant on variables of one
// width the equalities do hold bit-precisely: reduction modulo 2^w maps
// an execution over the integers onto the program's (Müller-Olm and
// Seidl, "Analysis of modular arithmetic", ESOP 2005, section 2).
package affine
