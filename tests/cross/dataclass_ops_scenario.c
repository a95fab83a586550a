/*
 * Upstream's generic operations over values, through c_api.h alone:
 * ffi.ReprPrint, ffi.RecursiveEq / Lt / Hash, ffi.StructuralEqual / Hash and
 * GetFirstStructuralMismatch, ffi.DeepCopy and the JSON graph
 * (ffi.ToJSONGraphString, ffi.FromJSONGraphString), on values built with the
 * container globals. Built twice, against ffi-core's runtime and against the
 * wheel's; compare_runs.cmake requires identical transcripts. Hash values
 * differ between runtimes, so only whether two hashes agree is printed; of
 * an error only its kind. Under host-asan this is also the sanitizers' run
 * of these operations (the Python tests cannot load an instrumented
 * library).
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "../c/c_test_support.h"

static void Release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(v->v_obj);
  *v = None();
}

/* global(args...) -> owned result; on failure prints "<label>: <Kind>". */
static TVMFFIAny Call(const char* label, const char* global, TVMFFIAny* args, int32_t n) {
  TVMFFIObjectHandle f = Global(global);
  TVMFFIAny r = None();
  if (TVMFFIFunctionCall(f, args, n, &r) != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    printf("%s: %.*s\n", label, err ? (int)ErrorCellOf(err)->kind.size : 4,
           err ? ErrorCellOf(err)->kind.data : "none");
    if (err) TVMFFIObjectDecRef(err);
    r = None();
    r.type_index = -1; /* marks a failure */
  }
  TVMFFIObjectDecRef(f);
  return r;
}

static void PrintText(const TVMFFIAny* v) {
  if (v->type_index == kTVMFFISmallStr) {
    printf("%.*s", (int)v->small_str_len, v->v_bytes);
  } else if (v->type_index == kTVMFFIStr) {
    const TVMFFIByteArray* b =
        (const TVMFFIByteArray*)((const char*)v->v_obj + sizeof(TVMFFIObject));
    printf("%.*s", (int)b->size, b->data);
  } else {
    printf("<not text: %d>", v->type_index);
  }
}

static void Repr(const char* label, TVMFFIAny value) {
  TVMFFIAny r = Call(label, "ffi.ReprPrint", &value, 1);
  if (r.type_index < 0) return;
  printf("%s: ", label);
  PrintText(&r);
  printf("\n");
  Release(&r);
}

static TVMFFIAny Seq(const char* global, TVMFFIAny* items, int32_t n) {
  return Call(global, global, items, n);
}

static TVMFFIAny Bool(int v) {
  TVMFFIAny b = Int(v);
  b.type_index = kTVMFFIBool;
  return b;
}

static void PrintHashes(const char* label, const char* global, TVMFFIAny a, TVMFFIAny b) {
  TVMFFIAny args[3];
  TVMFFIAny ha, hb;
  args[1] = Bool(0);
  args[2] = Bool(0);
  args[0] = a;
  ha = Call(label, global, args, strcmp(global, "ffi.StructuralHash") == 0 ? 3 : 1);
  args[0] = b;
  hb = Call(label, global, args, strcmp(global, "ffi.StructuralHash") == 0 ? 3 : 1);
  if (ha.type_index == kTVMFFIInt && hb.type_index == kTVMFFIInt) {
    printf(" hashes %s", ha.v_int64 == hb.v_int64 ? "agree" : "differ");
  }
}

/* The recursive comparison and hash, then the structural ones (no free
 * variables mapped, tensor content compared) with the mismatch query. */
static void Compare(const char* label, TVMFFIAny a, TVMFFIAny b) {
  TVMFFIAny args[4];
  TVMFFIAny eq, lt, seq, mismatch;
  args[0] = a;
  args[1] = b;
  eq = Call(label, "ffi.RecursiveEq", args, 2);
  lt = Call(label, "ffi.RecursiveLt", args, 2);
  printf("%s: eq %d", label, eq.type_index == kTVMFFIBool ? (int)eq.v_int64 : -1);
  if (lt.type_index == kTVMFFIBool) printf(" lt %d", (int)lt.v_int64);
  PrintHashes(label, "ffi.RecursiveHash", a, b);
  args[2] = Bool(0);
  args[3] = Bool(0);
  seq = Call(label, "ffi.StructuralEqual", args, 4);
  mismatch = Call(label, "ffi.GetFirstStructuralMismatch", args, 4);
  printf("; structural eq %d", seq.type_index == kTVMFFIBool ? (int)seq.v_int64 : -1);
  PrintHashes(label, "ffi.StructuralHash", a, b);
  printf(" mismatch %s\n", mismatch.type_index == kTVMFFINone ? "none" : "found");
  Release(&lt);
  Release(&mismatch);
}

static void RoundTrip(const char* label, TVMFFIAny value) {
  TVMFFIAny args[2], text, back;
  args[0] = value;
  args[1] = None();
  text = Call(label, "ffi.ToJSONGraphString", args, 2);
  if (text.type_index < 0) return;
  printf("%s: ", label);
  PrintText(&text);
  printf("\n");
  back = Call(label, "ffi.FromJSONGraphString", &text, 1);
  if (back.type_index >= 0) {
    args[1] = back;
    Compare("  read back equal", value, back);
    Release(&back);
  }
  Release(&text);
}

/* Only whether it is refused: the kinds differ (the wheel's base64 check is
 * an InternalError, ffi-core's a ValueError). */
static void Malformed(const char* json) {
  TVMFFIObjectHandle f = Global("ffi.FromJSONGraphString");
  TVMFFIAny text = RawStr(json), r = None();
  TVMFFIObjectHandle err = NULL;
  const int rc = TVMFFIFunctionCall(f, &text, 1, &r);
  TVMFFIErrorMoveFromRaised(&err);
  printf("%s: %s\n", json, rc != 0 && err != NULL ? "refused" : "accepted");
  if (err != NULL) TVMFFIObjectDecRef(err);
  Release(&r);
  TVMFFIObjectDecRef(f);
}

int main(void) {
  TVMFFIAny items[8], inner, arr, lst, map, dict, shape, copy, big;
  int64_t words[2] = {0, 1}; /* 2^64 */
  TVMFFIByteArray big_bytes;
  setvbuf(stdout, NULL, _IONBF, 0);

  items[0] = Int(1);
  items[1] = Int(2);
  inner = Seq("ffi.Array", items, 2);
  items[0] = inner;
  items[1] = RawStr("a string longer than the small form");
  items[2] = Float(2.5);
  items[3] = None();
  items[4] = inner;
  arr = Seq("ffi.Array", items, 5);
  Repr("array", arr);
  items[0] = Int(42);
  items[1] = Seq("ffi.Array", items, 1);
  Repr("one-item array", items[1]);
  Release(&items[1]);
  items[0] = RawStr("k");
  items[1] = arr;
  items[2] = RawStr("quote\" nl\n");
  items[3] = Int(-7);
  map = Seq("ffi.Map", items, 4);
  Repr("map", map);
  dict = Seq("ffi.Dict", items, 4);
  Repr("dict", dict);
  items[0] = Int(2);
  items[1] = Int(3);
  shape = Seq("ffi.Shape", items, 2);
  Repr("shape", shape);
  big_bytes.data = (const char*)words;
  big_bytes.size = sizeof(words);
  EXPECT(TVMFFIBigIntFromByteArray(&big_bytes, &big) == 0);
  Repr("2^64", big);

  Compare("map vs dict", map, dict);
  Compare("array vs itself", arr, arr);
  Compare("inner vs array", inner, arr);
  copy = Call("deep copy", "ffi.DeepCopy", &arr, 1);
  Compare("array vs its deep copy", arr, copy);
  printf("deep copy is a new array: %d\n", copy.v_obj != arr.v_obj);
  Release(&copy);
  items[0] = map;
  items[1] = Int(1);
  Call("ordering maps", "ffi.RecursiveLt", items, 2);
  items[0] = Int(1);
  items[1] = RawStr("x");
  Call("ordering int vs str", "ffi.RecursiveLt", items, 2);

  items[0] = Int(1);
  lst = Seq("ffi.List", items, 1);
  items[0] = lst;
  items[1] = lst;
  items[2] = shape;
  items[3] = big;
  Release(&inner);
  inner = Seq("ffi.Array", items, 4);
  RoundTrip("json array", inner);
  RoundTrip("json map", map);
  RoundTrip("json dict", dict);
  RoundTrip("json none", None());
  RoundTrip("json float", Float(0.1));

  Malformed("");
  Malformed("{\"root_index\": 0}");
  Malformed("{\"root_index\": 3, \"nodes\": []}");
  Malformed("{\"root_index\": 0, \"nodes\": [{\"type\": \"ffi.Map\", \"data\": [0]}]}");
  Malformed("{\"root_index\": 0, \"nodes\": [{\"type\": \"ffi.Bytes\", \"data\": \"abc\"}]}");

  Release(&inner);
  Release(&lst);
  Release(&big);
  Release(&shape);
  Release(&dict);
  Release(&map);
  Release(&arr);
  return ReportResults();
}
