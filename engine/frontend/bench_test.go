package frontend

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reverify/reverify/engine/frontend/ccparse"
)

// benchProgram generates a preprocessed C file of n functions mixing
// loops, conditions, switches, calls, arrays and structs.
func benchProgram(n int) string {
	var b strings.Builder
	b.WriteString("# 1 \"bench.c\"\nextern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n")
	b.WriteString("struct node { int key; int vals[8]; struct node *next; };\nint table[64];\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `static int helper%d(struct node *p, int k) {
  int s = 0;
  for (int i = 0; i < 8 && p; i++) {
    s += p->vals[i] * k;
    if (s > 1000 || s < -1000)
      break;
  }
  return s;
}
int f%d(int x) {
  struct node n = {.key = x, .vals = {1, 2, 3}};
  int y = __VERIFIER_nondet_int();
  switch (y %% 4) {
  case 0:
    y = helper%d(&n, x) + table[x & 63];
    break;
  case 1:
    y++;
  default:
    y = x > 0 ? y - 1 : y + 1;
  }
  while (y > 0 && n.key != 0) {
    y -= 2;
    table[y & 63] = y;
  }
  if (y == 12345)
    reach_error();
  return y;
}
`, i, i, i)
	}
	b.WriteString("int main(void) { return f0(__VERIFIER_nondet_int()); }\n")
	return b.String()
}

// BenchmarkTranslate measures throughput in source lines per second on a
// generated file of 2000 functions (about 56,000 lines) and, when
// present, on the largest SV-COMP program in /root/svbench. The "parse"
// sub-benchmarks run cc/v4 alone (preprocessing, parsing, type checking);
// "translate" the whole front end; the difference is CFA construction.
func BenchmarkTranslate(b *testing.B) {
	inputs := []struct{ name, src string }{{"generated", benchProgram(2000)}}
	if path := largestSVBench(); path != "" {
		if data, err := os.ReadFile(path); err == nil {
			inputs = append(inputs, struct{ name, src string }{"svbench", string(data)})
		}
	} else {
		b.Log("no SV-COMP programs in /root/svbench: only the generated input")
	}
	for _, in := range inputs {
		lines := strings.Count(in.src, "\n")
		srcs := []Source{{Name: in.name + ".i", Content: in.src}}
		b.Run(in.name+"/parse", func(b *testing.B) {
			for b.Loop() {
				if _, _, err := parseAll(Options{}, srcs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
		b.Run(in.name+"/translate", func(b *testing.B) {
			var parse time.Duration
			ccparse.ParseStats = func(d time.Duration) { parse += d }
			defer func() { ccparse.ParseStats = nil }()
			for b.Loop() {
				if _, err := TranslateSources(Options{}, srcs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
			b.ReportMetric(100*parse.Seconds()/b.Elapsed().Seconds(), "%cc/v4")
		})
	}
}

func largestSVBench() string {
	if _, err := os.Stat(svbenchDir); err != nil {
		return ""
	}
	best, size := "", int64(0)
	for path := range svTasks(nil) {
		if fi, err := os.Stat(path); err == nil && fi.Size() > size {
			best, size = path, fi.Size()
		}
	}
	return best
}
