// Package scopegraph draws property scope call graphs (engine/scope) as
// arc diagrams, after seed 004_cf6cf6ed7e985aa5.txt, section 4.1.2: the
// functions of the program lie on a horizontal line in order of
// definition, each drawn as a circle of radius r = 1 + 0.5·log10(ncall)
// units (ncall: how often the ARG enters it; a function the analysis never
// entered has no circle, only its name), filled with a heat colour by its
// property scope importance (white for 0, yellow to red up to 1), and two
// functions are joined by an arc above the line when the ARG calls one from
// the other (direction ignored). One row per property, rows sharing the
// axis, so the scopes of several properties of one program can be compared
// as in the seed's Figure 5; each row is labelled with the property and its
// summary ("2 of 5 functions, 20.0% of locations").
//
// Outputs: [SVG] (the diagram) and [Text] (a fixed-width table of the same
// data for terminals and Markdown code blocks).
package scopegraph
