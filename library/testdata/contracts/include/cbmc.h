/* The macro layer a project writes its contracts with (as
   mlkem-native's cbmc.h does), expanding to CBMC's clauses. */
#ifndef CBMC_H
#define CBMC_H
#define __contract__(x) x
#define __loop__(x) x
#define requires(...) __CPROVER_requires(__VA_ARGS__)
#define ensures(...) __CPROVER_ensures(__VA_ARGS__)
#define assigns(...) __CPROVER_assigns(__VA_ARGS__)
#define invariant(...) __CPROVER_loop_invariant(__VA_ARGS__)
#define decreases(...) __CPROVER_decreases(__VA_ARGS__)
#define memory_no_alias(...) __CPROVER_is_fresh(__VA_ARGS__)
#define object_whole(...) __CPROVER_object_whole(__VA_ARGS__)
#define memory_slice(...) __CPROVER_object_upto(__VA_ARGS__)
#define old(...) __CPROVER_old(__VA_ARGS__)
#define return_value (__CPROVER_return_value)
#define forall(qvar, qvar_lb, qvar_ub, predicate)                              \
  __CPROVER_forall                                                             \
  {                                                                            \
    unsigned qvar;                                                             \
    ((unsigned)(qvar_lb) <= (qvar) && (qvar) < (unsigned)(qvar_ub)) ==> (predicate) \
  }
#endif
