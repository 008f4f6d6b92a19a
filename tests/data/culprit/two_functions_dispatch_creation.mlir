module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "x86-64-v4", cpu_features="...", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 64 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
  util.func public @g0(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @g0(%input0: tensor<2x1xf16>) -> (%output0: tensor<2xf16>)"}} {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x1xf16>
    %1 = flow.tensor.reshape %0 : tensor<2x1xf16> -> tensor<2xf16>
    %2 = flow.dispatch.workgroups(%1) : (tensor<2xf16>) -> tensor<2xf16> =
        (%arg1: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>>, %arg2: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>) {
      %4 = iree_tensor_ext.dispatch.tensor.load %arg1, offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>> -> tensor<2xf16>
      %5 = tensor.empty() : tensor<2xf16>
      %6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%4, %5 : tensor<2xf16>, tensor<2xf16>) outs(%5 : tensor<2xf16>) {
      ^bb0(%in: f16, %in_0: f16, %out: f16):
        %7 = arith.cmpf ogt, %in, %in_0 : f16
        %8 = arith.select %7, %in, %in_0 : f16
        linalg.yield %8 : f16
      } -> tensor<2xf16>
      iree_tensor_ext.dispatch.tensor.store %6, %arg2, offsets = [0], sizes = [2], strides = [1] : tensor<2xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>
      flow.return
    } count() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    %3 = hal.tensor.export %2 "output0" : tensor<2xf16> -> !hal.buffer_view
    util.return %3 : !hal.buffer_view
  }
  util.global private @__hoisted_tensor_2xf16 {stream.affinity.default = #hal.device.affinity<@__device_0>} : tensor<2xf16>
  util.initializer attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
    %0 = flow.dispatch.workgroups() : () -> tensor<2xf16> =
        (%arg0: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>) {
      %cst = arith.constant 0xFC00 : f16
      %c0_i32 = arith.constant 0 : i32
      %2 = tensor.empty() : tensor<2xf16>
      %3 = tensor.empty() : tensor<2xi32>
      %4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%3 : tensor<2xi32>) outs(%2 : tensor<2xf16>) {
      ^bb0(%in: i32, %out: f16):
        %5 = linalg.index 0 : index
        %6 = arith.index_cast %5 : index to i32
        %7 = arith.sitofp %6 : i32 to f16
        %8 = arith.cmpf oeq, %7, %cst : f16
        %9 = arith.cmpi sgt, %in, %c0_i32 : i32
        %10 = arith.andi %8, %9 : i1
        %11 = arith.cmpf ogt, %7, %cst : f16
        %12 = arith.ori %11, %10 : i1
        %13 = arith.select %12, %7, %cst : f16
        linalg.yield %13 : f16
      } -> tensor<2xf16>
      iree_tensor_ext.dispatch.tensor.store %4, %arg0, offsets = [0], sizes = [2], strides = [1] : tensor<2xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>
      flow.return
    } count() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    %1 = flow.dispatch.workgroups(%0) : (tensor<2xf16>) -> %0 =
        (%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2xf16>>) {
      %c0_i32 = arith.constant 0 : i32
      %2 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2xf16>> -> tensor<2xf16>
      %3 = tensor.empty() : tensor<2xi32>
      %4 = linalg.fill ins(%c0_i32 : i32) outs(%3 : tensor<2xi32>) -> tensor<2xi32>
      %5:2 = iree_linalg_ext.sort dimension(0) outs(%2, %4 : tensor<2xf16>, tensor<2xi32>) {
      ^bb0(%arg1: f16, %arg2: f16, %arg3: i32, %arg4: i32):
        %6 = arith.cmpf oeq, %arg1, %arg2 : f16
        %7 = arith.cmpi slt, %arg3, %arg4 : i32
        %8 = arith.andi %6, %7 : i1
        %9 = arith.cmpf olt, %arg1, %arg2 : f16
        %10 = arith.ori %9, %8 : i1
        iree_linalg_ext.yield %10 : i1
      } -> tensor<2xf16>, tensor<2xi32>
      iree_tensor_ext.dispatch.tensor.store %5#0, %arg0, offsets = [0], sizes = [2], strides = [1] : tensor<2xf16> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2xf16>>
      flow.return
    } count() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    util.global.store %1, @__hoisted_tensor_2xf16 : tensor<2xf16>
    util.return
  }
  util.func public @g1(%arg0: !hal.buffer_view, %arg1: !hal.buffer_view, %arg2: !hal.buffer_view, %arg3: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @g1(%input0: tensor<2x1xf16>, %input1: tensor<1x2xf16>, %input2: tensor<2xi32>, %input3: tensor<2xf16>) -> (%output0: tensor<1x2xf16>)"}} {
    %__hoisted_tensor_2xf16 = util.global.load immutable @__hoisted_tensor_2xf16 : tensor<2xf16>
    %0 = flow.tensor.reshape %__hoisted_tensor_2xf16 : tensor<2xf16> -> tensor<1x2xf16>
    %1 = hal.tensor.export %0 "output0" : tensor<1x2xf16> -> !hal.buffer_view
    util.return %1 : !hal.buffer_view
  }
}