package llvmir

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// FuzzTranslateText: any text is either an error or a program that
// passes cfa.Program.Check; the translation never panics (the parser's
// own panics become errors).
func FuzzTranslateText(f *testing.F) {
	seed, err := os.ReadFile("testdata/seed_fig15.ll")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(seed))
	f.Add("define i32 @main() {\n  %1 = alloca [4 x i8]\n  %2 = getelementptr [4 x i8], [4 x i8]* %1, i64 0, i64 3\n  store i8 7, i8* %2\n  %3 = load i8, i8* %2\n  %4 = zext i8 %3 to i32\n  ret i32 %4\n}\n")
	f.Add("@g = global { i32, i8* } zeroinitializer\ndefine void @f(i1 %c) {\n  %x = select i1 %c, i32 1, i32 2\n  switch i32 %x, label %d [ i32 1, label %a ]\na:\n  br label %d\nd:\n  %p = phi i32 [ 0, %0 ], [ 1, %a ]\n  ret void\n}\n")
	f.Fuzz(func(t *testing.T, text string) {
		done := make(chan bool)
		go func() {
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				panic(fmt.Sprintf("translation did not end within 5 s:\n%q", text))
			}
		}()
		defer close(done)
		p, err := TranslateText(Options{}, "f.ll", text)
		if err != nil {
			return
		}
		if err := p.Check(); err != nil {
			t.Fatalf("CFA sanity: %v\n%s", err, text)
		}
	})
}
