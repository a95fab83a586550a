// Type attributes: named columns of values indexed by type index
// (TVMFFITypeRegisterAttr, TVMFFIGetTypeAttrColumn). The column headers are a
// fixed table (FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY), so their addresses never
// change; each column's data is a range of cells cut from one fixed pool
// (FFI_CORE_TYPE_ATTR_CELL_CAPACITY). A column outgrowing its range moves to a
// new one at least twice as large; the old cells are not reused.
#include <ffi_core/any.h>
#include <ffi_core/error.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/type_table.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>
#include <cstring>

#include "c_api/c_boundary.h"
#include "support/global_lock_guard.h"

namespace ffi_core {
namespace {

struct Column {
  TVMFFIByteArray name;
  TVMFFITypeAttrColumn column;
};

constexpr char kEnumColumn[] = "__ffi_enum__";
// Upstream's runtime creates the enum column at startup, and upstream's
// C++ headers look it up from static initializers, so it exists from the
// start here too.
Column g_columns[FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY] = {
    {{kEnumColumn, sizeof(kEnumColumn) - 1}, {nullptr, 0, 0}}};
int32_t g_num_columns = 1;
TVMFFIAny g_cells[FFI_CORE_TYPE_ATTR_CELL_CAPACITY];
int32_t g_cells_used = 0;

// Upstream's C++ headers look these columns up once, on the first object
// AnyHash or AnyEqual meets, and keep the pointer; upstream's runtime makes
// them at startup, so the pointer is never NULL there. Here a look-up makes
// them, so a kernel that hashes before any type registers a custom hash still
// sees the ones registered later.
bool IsKeptLookup(const TVMFFIByteArray& name) {
  static constexpr char kAnyHash[] = "__any_hash__";
  static constexpr char kAnyEqual[] = "__any_equal__";
  return SameBytes(name, TVMFFIByteArray{kAnyHash, sizeof(kAnyHash) - 1}) ||
         SameBytes(name, TVMFFIByteArray{kAnyEqual, sizeof(kAnyEqual) - 1});
}

Column* FindColumn(const TVMFFIByteArray& name) {
  for (int32_t i = 0; i < g_num_columns; ++i) {
    if (SameBytes(g_columns[i].name, name)) return &g_columns[i];
  }
  return nullptr;
}

Expected<Column*> FindOrAddColumn(const TVMFFIByteArray& name) {
  if (Column* c = FindColumn(name)) return c;
  if (g_num_columns == FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"type attribute columns are full (FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY=",
                       FFI_CORE_TYPE_ATTR_COLUMN_CAPACITY, ")"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFIByteArray copy, CopyTypeText(name));
  Column* c = &g_columns[g_num_columns++];
  c->name = copy;
  c->column = TVMFFITypeAttrColumn{nullptr, 0, 0};
  return c;
}

// Makes the column's range cover type_index.
Status Cover(TVMFFITypeAttrColumn* column, int32_t type_index) {
  const int32_t begin = column->begin_index;
  const int64_t end = int64_t{begin} + column->size;
  if (column->data != nullptr && type_index >= begin && type_index < end) return Status::Ok();
  const int32_t new_begin = column->data == nullptr || type_index < begin ? type_index : begin;
  // In 64 bits, and the doubling stops at INT32_MAX: readers add
  // begin_index + size in int32 (RegisterAttr refuses INT32_MAX itself, so
  // the range needed always fits).
  const int64_t needed =
      (column->data == nullptr || type_index >= end ? int64_t{type_index} + 1 : end) - new_begin;
  const int64_t room = int64_t{INT32_MAX} - new_begin;
  int64_t wide = needed > 2 * int64_t{column->size} ? needed : 2 * int64_t{column->size};
  if (wide > room) wide = room;
  if (wide > FFI_CORE_TYPE_ATTR_CELL_CAPACITY - g_cells_used) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"TVMFFITypeRegisterAttr: type attribute cells are full "
                       "(FFI_CORE_TYPE_ATTR_CELL_CAPACITY=",
                       FFI_CORE_TYPE_ATTR_CELL_CAPACITY, ")"});
  }
  const int32_t size = static_cast<int32_t>(wide);
  TVMFFIAny* cells = g_cells + g_cells_used;
  g_cells_used += size;
  for (int32_t i = 0; i < size; ++i) cells[i] = NoneAny();
  for (int32_t i = 0; i < column->size; ++i) cells[begin - new_begin + i] = column->data[i];
  column->data = cells;
  column->size = size;
  column->begin_index = new_begin;
  return Status::Ok();
}

Status RegisterAttr(int32_t type_index, const TVMFFIByteArray& name, const TVMFFIAny& value) {
  if (type_index < 0) {
    return RaiseError(ErrorKind::kValueError,
                      {"TVMFFITypeRegisterAttr: negative type index ", type_index});
  }
  // A column ends at begin_index + size, which must fit in int32.
  if (type_index == INT32_MAX) {
    return RaiseError(ErrorKind::kValueError,
                      {"TVMFFITypeRegisterAttr: type index ", type_index, " is past every type"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(Any owned, Any::FromView(AnyView::FromRaw(value)));
  {
    detail::GlobalLockGuard lock;
    FFI_CORE_ASSIGN_OR_RETURN(Column * c, FindOrAddColumn(name));
    // None on kTVMFFINone only asks for the column to exist.
    if (type_index == kTVMFFINone && owned.raw().type_index == kTVMFFINone) return Status::Ok();
    FFI_CORE_RETURN_IF_ERROR(Cover(&c->column, type_index));
    TVMFFIAny* cell = const_cast<TVMFFIAny*>(c->column.data) + (type_index - c->column.begin_index);
    // As upstream: set once; a mutable container is the way to update.
    if (cell->type_index != kTVMFFINone) {
      return RaiseError(ErrorKind::kRuntimeError, {"TVMFFITypeRegisterAttr: ", c->name.data,
                                                   " is already set for type index ", type_index});
    }
    *cell = owned.ReleaseRaw();
  }
  return Status::Ok();
}

}  // namespace
}  // namespace ffi_core

using namespace ffi_core;  // NOLINT(build/namespaces): the C boundary

extern "C" {

int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                           const TVMFFIAny* attr_value) {
  if (attr_name == nullptr) return c_boundary::NullArgument("TVMFFITypeRegisterAttr", "attr_name");
  if (attr_value == nullptr)
    return c_boundary::NullArgument("TVMFFITypeRegisterAttr", "attr_value");
  // The name is compared and copied: NULL bytes are refused, not read.
  if (c_boundary::NullBytes(*attr_name)) {
    return c_boundary::NullArgument("TVMFFITypeRegisterAttr", "attr_name->data");
  }
  return RegisterAttr(type_index, *attr_name, *attr_value).ToReturnCode();
}

const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  if (attr_name == nullptr || c_boundary::NullBytes(*attr_name)) return nullptr;
  detail::GlobalLockGuard lock;
  Column* c = FindColumn(*attr_name);
  if (c == nullptr && IsKeptLookup(*attr_name)) {
    // Made empty on the first look-up; full columns answer NULL as before.
    Expected<Column*> made = FindOrAddColumn(*attr_name);
    if (!made.ok()) {  // no room: the error raised is dropped, NULL answers
      TVMFFIObjectHandle error = nullptr;
      TVMFFIErrorMoveFromRaised(&error);
      if (error != nullptr) TVMFFIObjectDecRef(error);
      return nullptr;
    }
    c = made.value();
  }
  return c != nullptr ? &c->column : nullptr;
}

}  // extern "C"
