/* Reading the boot-info block, and main's arguments from it for crt0. */
#include "hal/boot_info.h"

#include <stddef.h>

#include "socsim_memmap.h"

const volatile struct socsim_bootinfo* socsim_bootinfo(void) {
#ifdef SOCSIM_BOOTINFO_BASE
  const volatile struct socsim_bootinfo* info =
      (const volatile struct socsim_bootinfo*)SOCSIM_BOOTINFO_BASE;
  if (info->magic == SOCSIM_BOOTINFO_MAGIC && info->version >= 1) return info;
#endif
  return NULL;
}

/* argc and argv for main, returned in a0/a1. Without a valid block: argc 0, argv {NULL}. */
struct socsim_main_args {
  int argc;
  char** argv;
};

struct socsim_main_args __socsim_bootinfo_args(void) {
  static char* empty_argv[1] = {NULL};
  struct socsim_main_args args = {0, empty_argv};
  const volatile struct socsim_bootinfo* info = socsim_bootinfo();
  if (info != NULL) {
    args.argc = (int)info->argc;
    args.argv = (char**)(uintptr_t)info->argv;
  }
  return args;
}
