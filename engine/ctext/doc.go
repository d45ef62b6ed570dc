// Package ctext is the one reader of C source text outside the front
// end's parser: a scanner of identifiers and other tokens outside
// comments (Scan), the one normal form of C text that hashes and
// fingerprints compare (Normalize), and the masking of comments,
// literals and preprocessor lines that keeps offsets (Mask). It imports
// nothing of the module, so every layer may use it.
package ctext
