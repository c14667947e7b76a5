// Error codes, Result<T> and return-on-error macros of the inference runtime.
//
// The runtime runs freestanding (no exceptions, no heap): every operation that can fail
// returns an Error or a Result<T>. Codes are grouped in ranges so that a number printed by
// firmware can be placed at a glance (0x0x general, 0x1x resources, 0x2x program file,
// 0x3x operators and kernels, 0x4x delegates).
#pragma once

#include <stdint.h>

namespace socsim::runtime {

/// Why an operation failed. Values are stable: firmware may print them as numbers.
enum class Error : uint32_t {
  kOk = 0x00,
  // General.
  kInternal = 0x01,         ///< A runtime invariant does not hold.
  kInvalidArgument = 0x02,  ///< A caller passed a value the API does not accept.
  kInvalidState = 0x03,     ///< Called at the wrong time (e.g. execute before init).
  kNotSupported = 0x04,     ///< Valid request that this build does not implement.
  kNotFound = 0x05,         ///< An index or name does not exist.
  // Resources.
  kMemoryAllocationFailed = 0x10,  ///< An allocator pool is exhausted.
  kRegistryFull = 0x11,            ///< Too many kernels or backends were registered.
  kPlannedMemoryTooSmall = 0x12,   ///< A planned buffer given by the caller is too small.
  // Program file.
  kProgramBadMagic = 0x20,        ///< Not a program file.
  kProgramBadVersion = 0x21,      ///< A program file of an unsupported version.
  kProgramTruncated = 0x22,       ///< The file is shorter than its header or tables say.
  kProgramOutOfBounds = 0x23,     ///< An offset or count points outside the file/section.
  kProgramMisaligned = 0x24,      ///< Data or a table is not aligned as required.
  kProgramBadTensor = 0x25,       ///< A tensor record is inconsistent.
  kProgramBadInstruction = 0x26,  ///< An instruction record is inconsistent.
  kProgramBadMemoryPlan = 0x27,   ///< A planned tensor does not fit its buffer.
  kProgramBadDelegate = 0x28,     ///< A delegate record is inconsistent.
  // Operators.
  kOperatorMissing = 0x30,  ///< No kernel is registered for an operator name and dtype.
  kShapeMismatch = 0x31,    ///< Tensor shapes do not fit the operator.
  kDtypeMismatch = 0x32,    ///< Tensor dtypes do not fit the operator.
  kBadOperatorArgs = 0x33,  ///< The argument list of an operator is invalid.
  // Delegates.
  kDelegateMissing = 0x40,       ///< No backend is registered under the delegate's id.
  kDelegateUnavailable = 0x41,   ///< The backend exists but is_available() is false.
  kDelegateInitFailed = 0x42,    ///< The backend rejected the delegate blob.
  kDelegateExecuteFailed = 0x43  ///< The backend failed while executing.
};

/// A short, stable, human-readable name for an error ("ProgramTruncated"...).
const char* to_string(Error error);

/// Ends the program: a broken invariant (e.g. reading the value of a failed Result). On the
/// target this goes through the HAL (socsim_abort: message, exit status 134); on the host it
/// prints the message and calls abort().
[[noreturn]] void fatal(const char* message);

/// Moves from an lvalue (the runtime has no <utility>).
template <typename T>
constexpr T&& move_from(T& value) {
  return static_cast<T&&>(value);
}

/// A value or an error. The value exists only when ok(): an error Result holds no T (none is
/// default-constructed) and reading its value ends the program through fatal(), so a
/// forgotten ok() check is caught at the first access. Results are moved, never copied; T
/// may be move-only (a Method).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(const T& value) : storage_(value), error_(Error::kOk) {}  // NOLINT: implicit by design
  Result(T&& value) : storage_(move_from(value)), error_(Error::kOk) {}            // NOLINT
  Result(Error error) : error_(error == Error::kOk ? Error::kInternal : error) {}  // NOLINT
  Result(Result&& other)
      : storage_(other.ok() ? Storage(move_from(other.storage_.value)) : Storage()),
        error_(other.error_) {}
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&&) = delete;
  ~Result() {
    if (ok()) storage_.value.~T();
  }

  bool ok() const { return error_ == Error::kOk; }
  Error error() const { return error_; }
  /// The value; fatal() when !ok().
  T& get() { return checked(); }
  const T& get() const { return const_cast<Result*>(this)->checked(); }
  T* operator->() { return &checked(); }
  const T* operator->() const { return &get(); }
  T& operator*() { return checked(); }
  const T& operator*() const { return get(); }

 private:
  // A union member is constructed only by the constructors that hold a value.
  union Storage {
    Storage() {}
    explicit Storage(const T& v) : value(v) {}
    explicit Storage(T&& v) : value(move_from(v)) {}
    ~Storage() {}
    T value;
  };

  T& checked() {
    if (!ok()) fatal("Result: value read from an error");
    return storage_.value;
  }

  Storage storage_;
  Error error_;
};

}  // namespace socsim::runtime

/// Returns `error` from the enclosing function if `cond` is false.
#define SOCSIM_RT_CHECK(cond, error) \
  do {                               \
    if (!(cond)) return (error);     \
  } while (0)

/// Evaluates an expression returning Error and returns it from the enclosing function if it
/// is not kOk.
#define SOCSIM_RT_TRY(expr)                                                     \
  do {                                                                          \
    const ::socsim::runtime::Error socsim_rt_err_ = (expr);                     \
    if (socsim_rt_err_ != ::socsim::runtime::Error::kOk) return socsim_rt_err_; \
  } while (0)

#define SOCSIM_RT_CONCAT_INNER(a, b) a##b
#define SOCSIM_RT_CONCAT(a, b) SOCSIM_RT_CONCAT_INNER(a, b)

/// Declares `lhs` from a Result expression, returning its error from the enclosing function
/// if it failed: SOCSIM_RT_ASSIGN_OR_RETURN(Program program, Program::load(data, size));
/// The value is moved out of the Result.
#define SOCSIM_RT_ASSIGN_OR_RETURN(lhs, expr) \
  SOCSIM_RT_ASSIGN_OR_RETURN_IMPL(SOCSIM_RT_CONCAT(socsim_rt_res_, __LINE__), lhs, expr)
#define SOCSIM_RT_ASSIGN_OR_RETURN_IMPL(res, lhs, expr) \
  auto res = (expr);                                    \
  if (!res.ok()) return res.error();                    \
  lhs = ::socsim::runtime::move_from(res.get())
