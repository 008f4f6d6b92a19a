#!/bin/sh
# Regenerates docs/bundles/ with the tool: one `ireefuzz check --bundle` per reproducer in docs/repros/,
# (the tool picks the least specific CPU of generic, x86-64-v3, host that reproduces), then
# `ireefuzz bisect` on the releases installed here. Run from the repository root.
set -eu
VERSIONS=${VERSIONS:-3.7.0,3.10.0,3.11.0,3.12.0,3.13.0}
one() {  # one <folder under docs/bundles> <reproducer> [check options]
  dir=docs/bundles/$1; src=$2; shift 2
  rm -rf "$dir"
  ireefuzz check "docs/repros/$src" --bundle "$dir" "$@" || true
  for b in "$dir"/*/; do [ -f "$b/run.sh" ] && ireefuzz bisect "$b" --versions "$VERSIONS" --no-install || true; done
}
if [ $# -gt 0 ]; then one "$@"; exit; fi
one fold_unit_extent_dims/depthwise_conv_invalid_ir depthwise_conv_unit_output_invalid_ir.mlir
one fold_unit_extent_dims/pooling_max_wrong_values pooling_max_unit_output_wrong_values.mlir
one fold_unit_extent_dims/conv_unread_row_wrong_values conv_unit_output_unread_row_wrong_values.mlir --shapes 63x15,7,3x4x1x15,3x1x15x3
one fill_then_sum_wrong_value fill_then_sum_wrong_value.mlir
one gather_of_gather_wrong_values gather_of_gather_wrong_values.mlir --shapes 2x1,3,3 --seed 4 --oracles numeric
# (conv_nchw_splat_generic_init_alloca.mlir: no finding since the memory oracle counts only a stack buffer that
#  survives LLVM; LLVM promotes its alloca)
one mmt4d_dynamic_sigfpe mmt4d_dynamic_sigfpe.mlir
one masked_contract_drop_unit_dims attention_masked_contract_drop_unit_dims_error.mlir
one gather_from_strided_slice_translation_error gather_from_strided_slice_unrealized_cast.mlir
one unpack_into_argument unpack_into_argument_write_error.mlir
one conv_input_as_outs_crash conv_input_as_outs_crash.mlir
one comment_llvm_113021_reverse_map_tiling reverse_map_then_reduce_tiling_invalid_ir.mlir
# (argsort_1d_dynamic_stack.mlir: iree-org/iree#24735 itself, whose thread holds an equally small reproducer: a
#  comment would add nothing (round 39's review), so no bundle)
# (sort_of_an_argument_in_place.mlir: iree-org/iree#24665, whose fix #24658 shipped in 3.14.0; 3.14.0 is not
#  installable here, and a comment on a shipped fix must first show the bug there: no bundle)
one transpose_of_a_multi_result_generic transpose_of_a_multi_result_generic_invalid_yield.mlir
# needs a CPU without AVX-512 FP16 (which lowers the f16 maxnumf natively): x86-64-v3, not host
one comment_13577_f16_maxnumf_fmaxf f16_maxnumf_reduction_undefined_fmaxf.mlir --target-cpu x86-64-v3
# the two-function module as found needs x86-64-v3 and O3 to show it; its reduced program needs neither (the tool
# bundles it without the flags it does not need, on the least specific CPU): iree-org/iree#23665's mechanism
one comment_23665_two_functions_cse_aliasing two_functions_iota_argmax_O3_zeroes.mlir --target-cpu x86-64-v3 --flags=--iree-opt-level=O3 --oracles numeric
# round 41's two new bugs, found by its campaigns and triaged by an outsider with stock tools first
one offset_map_infer_convolution_dims_sigsegv offset_map_infer_convolution_dims_sigsegv.mlir
one asinh_of_negative_values_cancels asinh_of_negative_values_cancels.mlir --shapes 64
# stop 44: found by its campaigns, each reproduced and minimized by an outsider with stock tools before it read the
# tool's report
one reduction_read_twice_diagonal_only reduction_read_twice_by_a_fused_consumer_diagonal_only.mlir
one gather_read_by_reduction_and_elementwise_stack_buffer gather_read_by_reduction_and_elementwise_stack_buffer.mlir
# stop 42: found by a stock-tools spike, then by the host campaign once pow_int was drawn; triaged by an outsider first
VERSIONS=3.2.0,$VERSIONS  # 3.2.0 is right: the bug came in after it (the last line, so no other bundle takes it)
one fpowi_runtime_exponent_negative_base_nan fpowi_runtime_exponent_negative_base_nan.mlir --shapes 64,64
