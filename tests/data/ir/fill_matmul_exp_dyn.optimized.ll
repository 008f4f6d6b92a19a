define internal noundef i32 @fill_matmul_exp_dispatch_0_matmul_DxDxD_f32(ptr noalias nofree nonnull readnone align 16 captures(none) %0, ptr noalias nofree noundef nonnull readonly align 16 captures(none) %1, ptr noalias nofree noundef nonnull readonly align 16 captures(none) %2) #0 !dbg !77 {
  %4 = alloca [56 x float], align 64, !dbg !79
  %5 = alloca [56 x float], align 64, !dbg !79
  %.elt34 = getelementptr inbounds nuw i8, ptr %1, i64 24, !dbg !80
  %.unpack35 = load ptr, ptr %.elt34, align 8, !dbg !80
  %.elt36 = getelementptr inbounds nuw i8, ptr %1, i64 32, !dbg !80
  %.unpack37 = load ptr, ptr %.elt36, align 16, !dbg !80
  %6 = load i32, ptr %.unpack35, align 4, !dbg !80
  %7 = getelementptr i8, ptr %.unpack35, i64 4, !dbg !81
  %8 = load i32, ptr %7, align 4, !dbg !81
  %9 = getelementptr i8, ptr %.unpack35, i64 16, !dbg !82
  %10 = load i64, ptr %9, align 4, !dbg !82
  ; ... (the rest of the function's 2,899 lines: recorded as an excerpt)
}
