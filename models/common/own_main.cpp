// For programs with a main() of their own (benchmarks, fuzz targets) that link libsystemc.so:
// the library defines main() and calls sc_main() from it, so its reference must resolve,
// and a sanitizer build's link checks it. The program's own main() runs; this never does.
extern "C" int sc_main(int, char**) {
  return 1;
}
