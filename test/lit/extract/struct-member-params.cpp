// Members of a struct become kernel parameters named after their path
// (`p_x` for `p->x`); the launcher passes the address of each member.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s
// RUN: %sched_cc -fsyntax-only -Xclang -ast-dump -Xclang -ast-dump-filter=byPointer %s | FileCheck %s --check-prefix=AST

struct Vec {
  float *x;
  float *y;
  int n;
};

void byPointer(const Vec *p) {
#pragma sched target(gpu)
  for (int i = 0; i < p->n; ++i)
    p->y[i] = p->x[i];
}
// CHECK-LABEL: func sched_{{.*}}(p_y: float32*[p_n] global, p_x: float32*[p_n] global, p_n: int32)
// CHECK:      p_y[i] = p_x[i]

// AST:      CallExpr {{.*}} 'int'
// AST:      UnaryOperator {{.*}} prefix '&'
// AST-NEXT: MemberExpr {{.*}} ->y
// AST:      UnaryOperator {{.*}} prefix '&'
// AST-NEXT: MemberExpr {{.*}} ->x
// AST:      UnaryOperator {{.*}} prefix '&'
// AST-NEXT: MemberExpr {{.*}} ->n
