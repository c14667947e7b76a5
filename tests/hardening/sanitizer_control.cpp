// Controls for the sanitizer build (SOCSIM_SANITIZE): proof that ASan and UBSan report real
// errors in code that runs inside SystemC threads (on QuickThreads coroutine stacks), and
// that they report nothing on correct code that exercises those stacks.
//
// Usage: sanitizer_control heap-overflow | signed-overflow | clean
//   heap-overflow    an SC_THREAD reads one element past a heap array (ASan must report it)
//   signed-overflow  an SC_THREAD overflows an int (UBSan must report it and stop)
//   clean            SC_THREADs switch thousands of times with deep frames, exceptions
//                    thrown and caught on their stacks, and locals whose addresses escape;
//                    no report may appear and the run ends with "clean: done"
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>

namespace {

volatile int g_sink = 0;

int __attribute__((noinline)) read_past_end(const int* values, int count) {
  return values[count];  // one past the end
}

int __attribute__((noinline)) add(int a, int b) {
  return a + b;
}

int __attribute__((noinline)) deep(int depth, int* trail) {
  char frame[256];
  std::memset(frame, depth & 0xFF, sizeof frame);
  if (depth == 0) return frame[7];
  trail[depth % 16] += frame[depth % sizeof frame];
  return deep(depth - 1, trail) + frame[3];
}

void __attribute__((noinline)) throw_from(int depth) {
  char frame[64];
  std::memset(frame, 1, sizeof frame);
  g_sink = g_sink + frame[depth % 64];
  if (depth == 0) throw std::runtime_error("expected");
  throw_from(depth - 1);
}

SC_MODULE(Control) {
  std::string mode;

  SC_CTOR(Control) {
    SC_THREAD(first);
    SC_THREAD(second);
  }

  void first() {
    wait(sc_core::sc_time(1, sc_core::SC_NS));
    if (mode == "heap-overflow") {
      auto values = std::make_unique<int[]>(8);
      g_sink = read_past_end(values.get(), 8);
    } else if (mode == "signed-overflow") {
      g_sink = add(0x7FFFFFFF, g_sink + 1);
    } else {
      exercise(3);
    }
  }

  void second() {
    if (mode == "clean") exercise(5);
  }

  void exercise(int seed) {
    int trail[16] = {};
    for (int i = 0; i < 2000; ++i) {
      g_sink = g_sink + deep(40 + (i + seed) % 40, trail);
      try {
        throw_from(i % 30);
      } catch (const std::runtime_error&) {
        // caught on this coroutine's stack, then the thread is switched out
      }
      int* escaped = &trail[i % 16];
      wait(sc_core::sc_time(1 + (i % 3), sc_core::SC_NS));
      *escaped += 1;
    }
    if (seed == 5) std::printf("clean: done\n");
  }
};

}  // namespace

int sc_main(int argc, char* argv[]) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode != "heap-overflow" && mode != "signed-overflow" && mode != "clean") {
    std::fprintf(stderr, "usage: sanitizer_control heap-overflow|signed-overflow|clean\n");
    return 2;
  }
  Control control("control");
  control.mode = mode;
  sc_core::sc_start();
  return 0;
}
