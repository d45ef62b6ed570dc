package reproduce

// Emulator is the user-mode emulator reproduce.sh runs an ILP32 (i386)
// reproducer under on a kernel that cannot execute 32-bit programs
// (Debian package qemu-user, installed by scripts/install.sh);
// report/reproducer.Run falls back to the same program.
const Emulator = "qemu-i386"

// ProbeEnv is the environment variable that makes a reproducer exit with
// status 0 before the program's main runs (a constructor in the harness):
// reproduce.sh starts the reproducer once with it set to learn whether
// the kernel executes it at all.
const ProbeEnv = "REVERIFY_REPRODUCER_PROBE"
