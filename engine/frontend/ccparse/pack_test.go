package ccparse

import (
	"strings"
	"testing"
)

// TestMarkPackPragmas: the pragma lines become markers on the same lines;
// a directive continued from the line before, or followed by more than a
// comment, stays.
func TestMarkPackPragmas(t *testing.T) {
	src := "#pragma pack(push, 1) /* a\n b */\n  # pragma pack (2)\n#define X \\\n#pragma pack(1)\n#pragma pack(1) int x;\n#define P _Pragma(\"pack(pop)\")\n#pragma once\n"
	got, ok := markPackPragmas(src)
	if !ok {
		t.Fatal("nothing marked")
	}
	want := "_Static_assert(1, \"reverify #pragma pack(push, 1)\"); /* a\n b */\n  _Static_assert(1, \"reverify #pragma pack(2)\");\n#define X \\\n#pragma pack(1)\n#pragma pack(1) int x;\n#define P _Static_assert(1, \"reverify #pragma pack(pop)\");\n#pragma once\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Error("lines moved")
	}
	for _, c := range []struct {
		args string
		want packAction
	}{
		{"", packAction{kind: packSet}},
		{"1", packAction{kind: packSet, align: 1}},
		{"010", packAction{kind: packSet, align: 8}},
		{"3", packAction{kind: packIgnored}},
		{"push", packAction{kind: packPush, align: -1}},
		{"push, 4", packAction{kind: packPush, align: 4}},
		{"push, 4, id", packAction{kind: packPush, align: 4, id: "id"}},
		{"push, id, 2u", packAction{kind: packPush, align: 2, id: "id"}},
		{"pop, id", packAction{kind: packPop, align: -1, id: "id"}},
		{"pop, 4", packAction{kind: packIgnored}},
		{"push 4", packAction{kind: packIgnored}},
		{"ONE", packAction{kind: packIgnored}},
		{"push, a, b", packAction{kind: packIgnored}},
	} {
		if got := parsePack(packTokens(c.args)); got != c.want {
			t.Errorf("pack(%s): %+v, want %+v", c.args, got, c.want)
		}
	}
}
