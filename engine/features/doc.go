// Package features reads from a program's CFA the features that predict
// which analysis decides its properties fastest: how many loops it has
// and of which shape (a loop without arithmetic updates, a counting loop
// bounded by a small constant, a loop whose bound is an input or a large
// constant), and whether it uses the heap, arrays or recursion. The
// engine's `default` portfolio orders its arms by the class these
// features give (algorithm selection in the spirit of CPAchecker's
// PeSCo: Richter, Wehrheim, "PeSCo: Predicting Sequential
// Combinations of Verifiers", TACAS 2019; here by fixed rules, not a
// learned ranking).
package features
