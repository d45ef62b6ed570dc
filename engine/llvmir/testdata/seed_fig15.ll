; The LLVM translation of seed 000 (000_f76fde50ed4a4828.txt), figure 15b,
; as printed there (with "br il" read as "br i1" and the attribute groups
; left out): a global x, a function decr and a loop in main.
@x = global i32 10, align 4

; Function Attrs: nounwind uwtable
define i32 @decr(i32) {
  %2 = alloca i32, align 4
  store i32 %0, i32* %2, align 4
  %3 = load i32, i32* %2, align 4
  %4 = sub nsw i32 %3, 1
  ret i32 %4
}

; Function Attrs: nounwind uwtable
define i32 @main() {
  %1 = alloca i32, align 4
  store i32 0, i32* %1, align 4
  br label %2

; <label>:2:
; preds = %5, %0
  %3 = load i32, i32* @x, align 4
  %4 = icmp sgt i32 %3, 0
  br i1 %4, label %5, label %8

; <label>:5:
; preds = %2
  %6 = load i32, i32* @x, align 4
  %7 = call i32 @decr(i32 %6)
  store i32 %7, i32* @x, align 4
  br label %2

; <label>:8:
; preds = %2
  %9 = load i32, i32* %1, align 4
  ret i32 %9
}
