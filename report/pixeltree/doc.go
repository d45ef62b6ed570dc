// Package pixeltree draws pixel trees: an abstract picture of a
// single-entry graph, above all the abstract reachability graph (ARG) an
// analysis explored, that stays readable for millions of states.
//
// Pixel trees are described in seed 000, section 3.5 ("Pixel Trees:
// Visualization of Analyses"): node labels and edges are dropped and the
// graph is drawn breadth-first, one horizontal line per distance from the
// root (row d holds the states at BFS depth d), one unit of length per
// state, every line centred, so the position of a state says nothing about
// its parent. Special states are coloured: covered states (the stop
// operator held) green, target states red, merged states yellow; ordinary
// states are black on a light background. Following CPAchecker's later
// exporter, a highlighted path such as the counterexample is blue
// ([Highlight]) and unexpanded (waitlist) states are orange. As the seed
// notes, any graph with one entry node works — ARG, CFA, dependence graph —
// so the input is a generic [Tree]: a [graph.Graph] plus a [Kind] per
// node, e.g. from [FromFunc].
//
// [Layout] performs the single breadth-first search the seed calls for
// (each node visited once; a node reachable along several paths is drawn
// once, at its BFS depth) and returns a [Picture], which renders as
//
//   - PNG ([Picture.PNG], [Picture.Image]): Unit×Unit pixels per state,
//     4-bit paletted;
//   - SVG ([Picture.SVG]): the same geometry, one <rect> per run of
//     equal-kind states in a row;
//   - text ([Picture.Text]): Unicode blocks for a Markdown code block,
//     two levels per line, 80 columns unless told otherwise, with a
//     legend.
//
// A picture larger than its budget (Options.MaxWidth/MaxHeight pixels, or
// the text width and line count) is scaled down: one pixel column or
// character then stands for several adjacent states (several levels, when
// too deep) and shows the most important kind among them, Target >
// Highlighted > Covered > Merged > Unexpanded > Ordinary, so a single
// target among a million states stays visible. Options.MaxDepth cuts the
// picture at a depth; the picture then says so (a dotted grey line under
// the images, "cut after depth d" in the text and the SVG title).
//
// Layout and PNG of a random ARG with 1,000,000 states take about 20 ms
// together (see bench_test.go).
//
// # Text form
//
// The text form of the ARG in the package example (25 states; path 0 1 3
// 6 11 17 22 highlighted):
//
//	  *
//	 ▄█*
//	██░▒**
//	░░░░X?
//	█ state  ░ covered  X target  ▒ merged  * path  ? unexpanded
//	25 states, 8 levels
//
// Each character covers two consecutive levels: ▀ ▄ █ are ordinary states
// in the upper, lower or both halves; the other glyphs mark the most
// important kind of the two. A random ARG of 6,000 states with a
// highlighted counterexample, scaled to 80 columns:
//
//	                                       *
//	                                       *▄
//	                                       *█
//	                                       *█
//	                                       *█
//	                                       *░
//	                                       █*
//	                                       **
//	                                      ██*█
//	                                     ▄░▒*░▄
//	                                   ▄░█░░░*█▒
//	                                ▄▄▒░█░██▒**░█▒▄
//	                            ▄▄█░░░█░░░▒░▒▒**░░░▒█▄░▄
//	                     ▄▄▄░░░░░░█░█░░█░░░░░░█░█**█░░██░█░░▄▄▄
//	         ░░▄░▄▄██░█▒░░█░██░X███▒░█▒░▒█X░░██░███X░██X░█▒█░░█░████░▄░▒▄▄▄
//	▀▀▀▒▀X░▀░░▀▒░░▀?????????????????X?????X??X??????????X????X??????????????????????
//	█ state  ░ covered  X target  ▒ merged  * path  ? unexpanded
//	6000 states, 32 levels, 1 column ≈ 16 states
//
// Glyphs are block elements and ASCII only, which GitHub's monospace fonts
// all have at a fixed width.
package pixeltree
