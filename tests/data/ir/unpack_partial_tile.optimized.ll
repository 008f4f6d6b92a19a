define internal noundef i32 @main_dispatch_0_unpack_f32(ptr noalias nofree nonnull readnone align 16 captures(none) %0, ptr noalias nofree noundef nonnull readonly align 16 captures(none) %1, ptr noalias nofree nonnull readnone align 16 captures(none) %2) #0 !dbg !77 {
  %.elt19 = getelementptr inbounds nuw i8, ptr %1, i64 32, !dbg !80
  %.unpack20 = load ptr, ptr %.elt19, align 16, !dbg !80
  %4 = load ptr, ptr %.unpack20, align 8, !dbg !80
  call void @llvm.assume(i1 true) [ "align"(ptr %4, i64 64) ], !dbg !80
  %5 = getelementptr i8, ptr %.unpack20, i64 8, !dbg !81
  %6 = load ptr, ptr %5, align 8, !dbg !81
  call void @llvm.assume(i1 true) [ "align"(ptr %6, i64 64) ], !dbg !81
  %.sroa.0.0.vec.extract = load float, ptr %4, align 64, !dbg !78
  store float %.sroa.0.0.vec.extract, ptr %6, align 64, !dbg !78
  ret i32 0, !dbg !79
}