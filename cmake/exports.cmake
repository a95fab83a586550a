# A host shared library that exports only its interface: hidden visibility by
# default (what is exported is declared TVM_FFI_DLL), the explicit list in
# cmake/exports/<list>.map, and nothing of the static archives it links (a
# toolchain's libstdc++.a above all: a process that loads another copy of it
# must not bind to ours).
function(ffi_core_export_only target list)
  set(_map "${PROJECT_SOURCE_DIR}/cmake/exports/${list}.map")
  set_target_properties(${target} PROPERTIES
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS "${_map}")
  target_link_options(${target} PRIVATE "-Wl,--version-script=${_map}" "-Wl,--exclude-libs,ALL")
endfunction()
