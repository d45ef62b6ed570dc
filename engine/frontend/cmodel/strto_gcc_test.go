package cmodel

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// strtoDriver calls each conversion of the model (its functions renamed
// m_… by the command line) and of the C library on every string of
// strtoInputs and prints each disagreement in the result or the end
// pointer (the model leaves errno alone: Strto); and it calls glibc's
// sscanf and the model's helpers as cfa.EmitSscanf calls them, on
// formats of each width and signedness, and prints each disagreement in
// the result or the values stored.
const strtoDriver = `#include <stdio.h>
#include <string.h>
#include <stdlib.h>
long m_strtol(const char *, char **, int);
long long m_strtoll(const char *, char **, int);
unsigned long m_strtoul(const char *, char **, int);
unsigned long long m_strtoull(const char *, char **, int);
int m_atoi(const char *);
long m_atol(const char *);
long long m_atoll(const char *);
extern const char *inputs[];
/* another base is the C library's (unmodelled in the analyses) */
long __reverify_strtol_base(const char *s, char **e, int b) { return strtol(s, e, b); }
long long __reverify_strtoll_base(const char *s, char **e, int b) { return strtoll(s, e, b); }
unsigned long __reverify_strtoul_base(const char *s, char **e, int b) { return strtoul(s, e, b); }
unsigned long long __reverify_strtoull_base(const char *s, char **e, int b) { return strtoull(s, e, b); }
#define SAME(call, fmt) do { \
	char *e1 = 0, *e2 = 0; (void)e1; (void)e2; \
	__typeof__(call(s, &e1, 10)) r1 = call(s, &e1, 10); \
	__typeof__(call(s, &e1, 10)) r2 = m_##call(s, &e2, 10); \
	if (r1 != r2 || e1 != e2) \
		printf(#call "(%s): libc " fmt " end %d, model " fmt " end %d\n", s, r1, (int)(e1 - s), r2, (int)(e2 - s)); \
} while (0)
#define SAME1(call, fmt) do { \
	__typeof__(call(s)) r1 = call(s), r2 = m_##call(s); \
	if (r1 != r2) printf(#call "(%s): libc " fmt ", model " fmt "\n", s, r1, r2); \
} while (0)
/* sscanf as cfa.EmitSscanf emits it over the model's helpers */
void __reverify_sscanf_begin(const char *);
int __reverify_sscanf_num(int);
unsigned long long __reverify_sscanf_value(void);
static int emu(const char *s, int n, const int *kinds, void **ps, const int *sizes) {
	__reverify_sscanf_begin(s);
	for (int j = 0; j < n; j++) {
		int k = __reverify_sscanf_num(kinds[j]);
		if (k != 1)
			return j == 0 ? k : j;
		unsigned long long v = __reverify_sscanf_value();
		memcpy(ps[j], &v, sizes[j]); /* the low bits, little-endian */
	}
	return n;
}
/* a format of one or two conversions of types T and U, kinds as
   EmitSscanf gives them */
#define KIND(T, u) ((sizeof(T) == 8) + 2 * (u))
#define SCAN1(fmt, T, u) do { \
	T a1 = (T)77, a2 = (T)77; \
	int r1 = sscanf(s, fmt, &a1); \
	int k[] = {KIND(T, u)}, z[] = {sizeof(T)}; void *p[] = {&a2}; \
	int r2 = emu(s, 1, k, p, z); \
	if (r1 != r2 || a1 != a2) printf("sscanf(\"%s\", %s): libc %d %lld, model %d %lld\n", s, #fmt, r1, (long long)a1, r2, (long long)a2); \
} while (0)
#define SCAN2(fmt, T, tu, U, uu) do { \
	T a1 = (T)77, a2 = (T)77; U b1 = (U)66, b2 = (U)66; \
	int r1 = sscanf(s, fmt, &a1, &b1); \
	int k[] = {KIND(T, tu), KIND(U, uu)}, z[] = {sizeof(T), sizeof(U)}; void *p[] = {&a2, &b2}; \
	int r2 = emu(s, 2, k, p, z); \
	if (r1 != r2 || a1 != a2 || b1 != b2) printf("sscanf(\"%s\", %s): libc %d %lld %lld, model %d %lld %lld\n", s, #fmt, r1, (long long)a1, (long long)b1, r2, (long long)a2, (long long)b2); \
} while (0)
int main(void) {
	int n = 0;
	for (const char **p = inputs; *p; p++, n++) {
		const char *s = *p;
		SAME(strtol, "%ld"); SAME(strtoll, "%lld"); SAME(strtoul, "%lu"); SAME(strtoull, "%llu");
		SAME1(atoi, "%d"); SAME1(atol, "%ld"); SAME1(atoll, "%lld");
		SCAN1("%d", int, 0); SCAN1("%u", unsigned, 1); SCAN1("%hhd", signed char, 0); SCAN1("%hhu", unsigned char, 1);
		SCAN1("%hd", short, 0); SCAN1("%hu", unsigned short, 1); SCAN1("%ld", long, 0); SCAN1("%lu", unsigned long, 1);
		SCAN1("%lld", long long, 0); SCAN1("%llu", unsigned long long, 1);
		SCAN2("%d %d", int, 0, int, 0); SCAN2("%d%u", int, 0, unsigned, 1); SCAN2(" %hhu %lld ", unsigned char, 1, long long, 0);
	}
	printf("checked %d\n", n);
	return 0;
}
`

// strtoInputs are the strings the model and the C library convert: the
// edges of every type's range in both data models, white space, signs,
// no digits, and random strings over digits, signs, spaces and letters.
func strtoInputs() []string {
	in := []string{"", " ", "  \n", "- 5", "5 6", "5,6", "\n7 8", "-5-6", "+", "3 +", "3 x", "0x1f 2", "255 256",
		"0", "-0", "+0", "42", "-42", "+-1", "-+1", "--1", " \t\n\v\f\r7", "\x017", "\xa07", "12abc", "abc", "-", "+", " -", "1 2", "0x10", "010", "007",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "-4294967295", "-4294967296",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "-18446744073709551615", "-18446744073709551616",
		"00000000000000000000000000123", "99999999999999999999999", "-99999999999999999999999", "184467440737095516150"}
	r := rand.New(rand.NewSource(1))
	const alpha = "0123456789012345678901234567890123456789 -+\tx9"
	for i := 0; i < 3000; i++ {
		b := make([]byte, r.Intn(24))
		for j := range b {
			b[j] = alpha[r.Intn(len(alpha))]
		}
		in = append(in, string(b))
	}
	return in
}

// TestStrtoAgainstGCC compiles the model (Strto) with gcc and compares
// every conversion with the C library's on strtoInputs, under LP64 and,
// where gcc can build and the machine run 32-bit programs, ILP32: the
// model must do exactly what glibc does, since the reproducer links
// glibc.
func TestStrtoAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	var lits strings.Builder
	lits.WriteString("const char *inputs[] = {\n")
	for _, s := range strtoInputs() {
		fmt.Fprintf(&lits, "\t\"%s\",\n", cEscape(s))
	}
	lits.WriteString("\t0,\n};\n")
	files := map[string]string{"model.c": strtoSource, "driver.c": strtoDriver, "inputs.c": lits.String()}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var rename []string
	for _, f := range Strto.Funcs {
		rename = append(rename, "-D"+f+"=m_"+f)
	}
	for _, m := range []string{"-m64", "-m32"} {
		exe := filepath.Join(dir, "cmp"+m)
		args := append([]string{m, "-O0", "-o", exe, filepath.Join(dir, "driver.c"), filepath.Join(dir, "inputs.c")}, "-x", "c")
		obj := filepath.Join(dir, "model"+m+".o")
		if out, err := exec.Command("gcc", append([]string{m, "-c", "-o", obj, filepath.Join(dir, "model.c")}, rename...)...).CombinedOutput(); err != nil {
			if m == "-m32" {
				t.Logf("no 32-bit build here: %s", firstLine(string(out)))
				continue
			}
			t.Fatalf("gcc %s model.c: %v\n%s", m, err, out)
		}
		args = append(args, "-x", "none", obj)
		if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
			if m == "-m32" {
				t.Logf("no 32-bit build here: %s", firstLine(string(out)))
				continue
			}
			t.Fatalf("gcc %s: %v\n%s", m, err, out)
		}
		out, err := exec.Command(exe).CombinedOutput()
		if err != nil {
			if m == "-m32" {
				t.Logf("32-bit programs do not run here: %v", err)
				continue
			}
			t.Fatalf("%s: %v\n%s", exe, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if last := lines[len(lines)-1]; !strings.HasPrefix(last, "checked ") {
			t.Fatalf("%s: no count: %s", m, out)
		}
		if len(lines) > 1 {
			t.Errorf("%s: the model disagrees with the C library on %d conversions:\n%s", m, len(lines)-1, strings.Join(lines[:min(len(lines)-1, 20)], "\n"))
		}
		t.Logf("%s: %s", m, lines[len(lines)-1])
	}
}

func cEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, "\\%03o", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
