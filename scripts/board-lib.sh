# Shared by the board scripts (sourced): building one app for a board and
# running it in QEMU.

# Every board, in the order the reports list them.
ALL_BOARDS=(microbit mps2-an385-armv6m mps2-an385 mps2-an386 mps2-an500 mps2-an505 mps3-an547
            riscv32-virt-imc riscv32-virt)

# The QEMU machine of a board, from its board.cmake.
qemu_machine() {
  sed -n 's/^set(FFI_CORE_QEMU_MACHINE \(.*\))$/\1/p' "boards/$1/board.cmake"
}

# board_qemu_run BOARD ELF [args...]: runs ELF in QEMU as BOARD's tests do,
# with its -cpu where it names one (the RISC-V boards turn extensions off).
board_qemu_run() {
  local board="$1" cpu
  shift
  cpu="$(sed -n 's/^set(FFI_CORE_QEMU_CPU "\([^"]*\)").*$/\1/p' "boards/${board}/board.cmake")"
  if [ -n "$cpu" ]; then
    boards/qemu-run.sh --cpu "$cpu" "$(qemu_machine "$board")" "$@"
  else
    boards/qemu-run.sh "$(qemu_machine "$board")" "$@"
  fi
}

# build_board_app BOARD TARGET BUILD_DIR [cmake args...]: configures BUILD_DIR
# for BOARD at -Os with its default port and builds TARGET.
build_board_app() {
  local board="$1" target="$2" dir="$3"
  shift 3
  if [ ! -f "boards/${board}/board.cmake" ]; then
    echo "unknown board '${board}'; one of: $(cd boards && ls -d */ | tr -d / | grep -v common | tr '\n' ' ')" >&2
    return 2
  fi
  # A toolchain file's flags reach the cache only when it is first made:
  # after a toolchain or board file changes, start the cache afresh, or the
  # figures would come from the old flags (objects are rebuilt as needed).
  local stamp
  stamp="$(cat toolchains/*.cmake boards/common/*.cmake "boards/${board}/board.cmake" | cksum)"
  if [ -f "$dir/CMakeCache.txt" ] && [ "$(cat "$dir/.toolchain-stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -f "$dir/CMakeCache.txt"
  fi
  cmake -S . -B "$dir" -DFFI_CORE_BOARD="$board" -DCMAKE_BUILD_TYPE=MinSizeRel "$@" >/dev/null
  echo "$stamp" >"$dir/.toolchain-stamp"
  cmake --build "$dir" --target "$target" -j"$(nproc)" >/dev/null
}

# cycle_model_args BOARD ELF PLUGIN LOG: the QEMU arguments that load the
# cycle model (tools/cycle-model) with BOARD's core, count each region
# between ELF's ffi_core_cycles_begin and ffi_core_cycles_end, and write its
# lines to LOG.
cycle_model_args() {
  local board="$1" elf="$2" plugin="$3" log="$4" nm=arm-none-eabi-nm cpu begin end
  [ "$(qemu_machine "$board")" = virt ] && nm=riscv64-unknown-elf-nm
  cpu="$(sed -n 's/^set(FFI_CORE_BOARD_CPU \(.*\))$/\1/p' "boards/${board}/board.cmake")"
  begin="$("$nm" "$elf" | sed -n 's/^\([0-9a-f]*\) . ffi_core_cycles_begin$/0x\1/p')"
  end="$("$nm" "$elf" | sed -n 's/^\([0-9a-f]*\) . ffi_core_cycles_end$/0x\1/p')"
  if [ -z "$begin" ] || [ -z "$end" ]; then
    echo "cycle_model_args: no ffi_core_cycles_begin/end in $elf" >&2
    return 1
  fi
  echo "-plugin file=$plugin,cpu=$cpu,begin=$begin,end=$end -d plugin -D $log"
}
