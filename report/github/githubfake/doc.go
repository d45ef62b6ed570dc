// Package githubfake is a recording in-memory fake of the part of
// GitHub's REST API that report/github uses, for tests: issue comments,
// pull-request files, review comments (listed, edited, deleted), reviews
// (created, listed, updated) and check runs of one repository, o/r. Every request is
// recorded (Take); lists are paged with Link headers when PageSize is
// set, so clients' pagination is exercised; Fail makes matching requests
// fail (rate limits, 5xx, 422); ReadOnly answers every write with 403 as
// GitHub does for the token of a pull request from a fork.
//
// It is the one fake of the repository: report/github's unit tests and
// cmd/reverify's end-to-end tests of the Action (which reach it through
// GITHUB_API_URL) both use it.
package githubfake
