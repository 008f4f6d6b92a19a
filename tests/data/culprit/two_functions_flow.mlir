module attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
  util.global private @__device_0 = #hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "x86-64-v4", cpu_features="...", data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128", iree.encoding.resolver = #iree_cpu.cpu_encoding_resolver<>, max_stack_allocation_size = 32768 : i64, native_vector_size = 64 : i64, target_triple = "x86_64-unknown-unknown-eabi-elf"}>]> : !hal.device
  flow.executable private @g0_dispatch_0 {
    flow.executable.export public @g0_dispatch_0_elementwise_2_f16 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @g0_dispatch_0_elementwise_2_f16(%arg0: !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>>, %arg1: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>) {
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<2xf16>> -> tensor<2xf16>
        %1 = tensor.empty() : tensor<2xf16>
        %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%0, %1 : tensor<2xf16>, tensor<2xf16>) outs(%1 : tensor<2xf16>) {
        ^bb0(%in: f16, %in_0: f16, %out: f16):
          %3 = arith.cmpf ogt, %in, %in_0 : f16
          %4 = arith.select %3, %in, %in_0 : f16
          linalg.yield %4 : f16
        } -> tensor<2xf16>
        iree_tensor_ext.dispatch.tensor.store %2, %arg1, offsets = [0], sizes = [2], strides = [1] : tensor<2xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>
        return
      }
    }
  }
  util.func public @g0(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub, iree.reflection = {iree.abi.declaration = "sync func @g0(%input0: tensor<2x1xf16>) -> (%output0: tensor<2xf16>)"}} {
    %0 = hal.tensor.import %arg0 "input0" : !hal.buffer_view -> tensor<2x1xf16>
    %1 = flow.tensor.reshape %0 : tensor<2x1xf16> -> tensor<2xf16>
    %2 = flow.dispatch @g0_dispatch_0::@g0_dispatch_0_elementwise_2_f16(%1) : (tensor<2xf16>) -> tensor<2xf16>
    %3 = hal.tensor.export %2 "output0" : tensor<2xf16> -> !hal.buffer_view
    util.return %3 : !hal.buffer_view
  }
  util.global private @__hoisted_tensor_2xf16 {stream.affinity.default = #hal.device.affinity<@__device_0>} : tensor<2xf16>
  flow.executable private @_initializer_0_dispatch_0 {
    flow.executable.export public @_initializer_0_dispatch_0_elementwise_2_i32xf16 workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @_initializer_0_dispatch_0_elementwise_2_i32xf16(%arg0: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>) {
        %cst = arith.constant 0xFC00 : f16
        %c0_i32 = arith.constant 0 : i32
        %0 = tensor.empty() : tensor<2xf16>
        %1 = tensor.empty() : tensor<2xi32>
        %2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%1 : tensor<2xi32>) outs(%0 : tensor<2xf16>) {
        ^bb0(%in: i32, %out: f16):
          %3 = linalg.index 0 : index
          %4 = arith.index_cast %3 : index to i32
          %5 = arith.sitofp %4 : i32 to f16
          %6 = arith.cmpf oeq, %5, %cst : f16
          %7 = arith.cmpi sgt, %in, %c0_i32 : i32
          %8 = arith.andi %6, %7 : i1
          %9 = arith.cmpf ogt, %5, %cst : f16
          %10 = arith.ori %9, %8 : i1
          %11 = arith.select %10, %5, %cst : f16
          linalg.yield %11 : f16
        } -> tensor<2xf16>
        iree_tensor_ext.dispatch.tensor.store %2, %arg0, offsets = [0], sizes = [2], strides = [1] : tensor<2xf16> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<2xf16>>
        return
      }
    }
  }
  flow.executable private @_initializer_0_dispatch_1 {
    flow.executable.export public @_initializer_0_dispatch_1_sort_2xf16_dispatch_tensor_store workgroups() -> (index, index, index) {
      %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
      flow.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @_initializer_0_dispatch_1_sort_2xf16_dispatch_tensor_store(%arg0: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2xf16>>) {
        %c0_i32 = arith.constant 0 : i32
        %0 = iree_tensor_ext.dispatch.tensor.load %arg0, offsets = [0], sizes = [2], strides = [1] : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2xf16>> -> tensor<2xf16>
        %1 = tensor.empty() : tensor<2xi32>
        %2 = linalg.fill ins(%c0_i32 : i32) outs(%1 : tensor<2xi32>) -> tensor<2xi32>
        %3:2 = iree_linalg_ext.sort dimension(0) outs(%0, %2 : tensor<2xf16>, tensor<2xi32>) {
        ^bb0(%arg1: f16, %arg2: f16, %arg3: i32, %arg4: i32):
          %4 = arith.cmpf oeq, %arg1, %arg2 : f16
          %5 = arith.cmpi slt, %arg3, %arg4 : i32
          %6 = arith.andi %4, %5 : i1
          %7 = arith.cmpf olt, %arg1, %arg2 : f16
          %8 = arith.ori %7, %6 : i1
          iree_linalg_ext.yield %8 : i1
        } -> tensor<2xf16>, tensor<2xi32>
        iree_tensor_ext.dispatch.tensor.store %3#0, %arg0, offsets = [0], sizes = [2], strides = [1] : tensor<2xf16> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<2xf16>>
        return
      }
    }
  }
  util.initializer attributes {stream.affinity.default = #hal.device.affinity<@__device_0>} {
    %0 = flow.dispatch @_initializer_0_dispatch_0::@_initializer_0_dispatch_0_elementwise_2_i32xf16() : () -> tensor<2xf16>
    %1 = flow.dispatch @_initializer_0_dispatch_1::@_initializer_0_dispatch_1_sort_2xf16_dispatch_tensor_store(%0) : (tensor<2xf16>) -> %0
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