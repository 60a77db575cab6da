//! The v1 preset dictionary: text deflate may refer back to, so that the first occurrence of
//! `Eigen::internal::EigenMetaKernel<…` or `at::native::vectorized_elementwise_kernel<` costs a
//! few bits instead of its letters. Small links gain most: names are the bulk of a 20-kernel
//! link and most of their words appear only once or twice.
//!
//! FROZEN with v1: a link's back-references point into these exact bytes, so changing one
//! byte would make every v1 link decode to garbage (the CRC would catch it; the test below
//! pins its checksum). Links of a future version may use another dictionary. The fragments
//! are kernel names as real profiles print them (the Nsight Compute, nvprof and rocprof
//! samples; PyTorch, TensorFlow/Eigen, cuDNN, cuBLAS, CUTLASS, rocBLAS/Tensile, cub, thrust,
//! Kokkos, RAJA, SYCL naming), the settings' ids and the catalogue's wording. Deflate codes
//! short distances cheaper, so the most common fragments come last.

pub const DICTIONARY: &str = concat!(
    // Machines (custom machines carry names, sources and ceiling names).
    "Empirical Roofline Toolkit (ERT) data sheet whitepaper measured STREAM Intel Advisor ",
    "Intel Data Center GPU Max 1550 Xeon Platinum 8480+ Xeon Gold 6132 AMD EPYC 7763 ",
    "AMD Instinct MI250X MI210 MI300X GCD NVIDIA H100 SXM5 H200 A100 SXM4 V100 PCIe SXM2 (1530 MHz) ",
    "Ding & Williams 2019, §III-A theoretical empirical Infinity Fabric NVLink 2.0 (6 links) ",
    "PCIe 3.0 x16 PCIe 4.0 x16 PCIe 5.0 x16 HBM2e HBM3 DRAM LDS SLM L3 LLC L2 L1 Shared HBM ",
    "Tensor TF32 Tensor BF16 Tensor FP8 Tensor INT8 INT32 INT8 Tensor FP16 FP16 no-FMA FP16 FP32 no-FMA FP32 FP64 no-FMA FP64 ",
    // Settings ids.
    "light dark walls instruction hierarchical classic tensor int fp16 fp32 fp64 l1 shared l2 l3 dram ",
    "v100 v100-pcie a100 h100 h200 mi250x mi250x-gcd mi210 mi300x max1550 ",
    // HPC codes, OpenMP/Advisor loop names, SYCL, Kokkos, RAJA.
    "[loop in main at main.cpp:] [OpenMP] omp_outlined._omp_fn. __omp_offloading_ ",
    "sycl::_V1::detail::RoundedRangeKernel<sycl::_V1::item<1, true>, typeinfo name for oneapi::mkl::",
    "RAJA::policy::cuda::impl::forall_cuda_kernel<RAJA::policy::cuda::cuda_exec_explicit<",
    "Kokkos::Impl::cuda_parallel_launch_local_memory<Kokkos::Impl::ParallelFor<Kokkos::RangePolicy<>, Kokkos::MDRangePolicy<Kokkos::Cuda>, ",
    "stream_triad stream_copy stream_scale nbody lbm spmv gemv dgemm sgemm fft transpose ",
    "compute_ update_ calc_ init_ reduce_ stencil27 stencil laplacian jacobi axpy daxpy saxpy vecCopy copy_kernel ",
    // ROCm.
    "__amd_rocclr_fillBufferAligned __amd_rocclr_copyBuffer miopen MIOpen rocblas_ ",
    "Cijk_Ailk_Bjlk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_ Cijk_Alik_Bljk_SB_MT64x64x16_SN_ ",
    // cuDNN, cuBLAS and vendor GEMM names.
    "cudnn::ops::nchwToNhwcKernel cudnn::gemm::computeOffsetsKernel(cudnn::gemm::ComputeOffsetsParams) ",
    "cudnn::detail::implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1, false, false, true>(int, int, ",
    "cudnn::detail::bn_fw_tr_1C11_kernel_NCHW<cudnn::detail::pooling_fw_4d_kernel<",
    "(cudnnTensorStruct, __half const*, cudnnTensorStruct, __half*, float const*, float, float, cudnn::reduced_divisor, ",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas ",
    "sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel ",
    "volta_fp16_s884cudnn_fp16_256x128_ldg8_relu_f2f_exp_small_nhwc_tn_v1 volta_sgemm_128x64_nn ",
    "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_64x3_tn ampere_sgemm_128x64_tn turing_fp16_s1688gemm_fp16_",
    "cutlass::Kernel<cutlass_80_tensorop_s1688gemm_bf16_128x128_32x3_nn_align8>(Params) cutlass::gemm::kernel::Gemm<",
    "cutlass::half_t, cutlass::bfloat16_t, cutlass::layout::RowMajor, cutlass::arch::Sm80, ",
    // PyTorch.
    "void flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t>>, (Flash_fwd_params) ",
    "void (anonymous namespace)::softmax_warp_forward<float, float, float, 8, false, false>(float*, float const*, int, int, int, bool const*, int, bool) ",
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>",
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, ",
    "void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<",
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::AddFunctor<float> >(at::TensorIteratorBase&, at::native::AddFunctor<float> const&)::{lambda(int)#1}>(int, ",
    "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, ",
    "at::detail::Array<char*, 2>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >",
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, ",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnSelf_add<float>, at::detail::Array<char*, 2> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>) ",
    "c10::BFloat16 c10::Half c10::complex<float> ",
    // cub / thrust.
    "void cub::DeviceReduceKernel<cub::DeviceReducePolicy<float, int, cub::Sum>::Policy600, float*, float*, int, cub::Sum> ",
    "void cub::DeviceRadixSortOnesweepKernel<cub::DeviceRadixSortPolicy<unsigned int, cub::NullType, unsigned int>::Policy800, ",
    "void thrust::cuda_cub::core::_kernel_agent<thrust::cuda_cub::__parallel_for::ParallelForAgent<thrust::cuda_cub::__uninitialized_fill::functor<thrust::device_ptr<float>, float>, unsigned long>, ",
    // TensorFlow / Eigen.
    "void tensorflow::functor::SwapDimension1And2InTensor3UsingTiles<unsigned int, 256, 32, 32, false>(unsigned int const*, tensorflow::functor::Dimension<3>, unsigned int*) ",
    "void tensorflow::functor::ShuffleInTensor3Simple<float, 2, 1, 0, false>(int, float const*, tensorflow::functor::Dimension<3>, float*) ",
    "void tensorflow::functor::ColumnReduceKernel<cub::TransformInputIterator<float, tensorflow::functor::HalfToFloat, Eigen::half*, long>, ",
    "void tensorflow::functor::RowReduceKernel<float const*, float*, cub::Sum>(float const*, float*, int, int, cub::Sum, std::iterator_traits<float const*>::value_type) ",
    "void tensorflow::BiasNHWCKernel<float>(int, float const*, float const*, float*, int) tensorflow::functor::PadInputCustomKernelNHWC<",
    "Eigen::TensorSlicingOp<Eigen::array<int, 2ul> const, Eigen::array<int, 2ul> const, Eigen::TensorPaddingOp<Eigen::array<Eigen::IndexPair<int>, 4ul> const, ",
    "Eigen::TensorBroadcastingOp<Eigen::IndexList<Eigen::type2index<1l>, int> const, Eigen::TensorReductionOp<Eigen::internal::SumReducer<float>, Eigen::IndexList<Eigen::type2index<1l>> const, ",
    "Eigen::TensorConversionOp<float, Eigen::TensorMap<Eigen::Tensor<Eigen::half const, 1, 1, long>, 16, Eigen::MakePointer> const> const, ",
    "Eigen::TensorCwiseUnaryOp<Eigen::internal::scalar_exp_op<float>, Eigen::TensorCwiseUnaryOp<Eigen::internal::scalar_right<float, float, Eigen::internal::scalar_product_op<float, float>, false>, ",
    "Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_sum_op<float const, float const>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_max_op<Eigen::half const, Eigen::half const>, ",
    "Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_product_op<float, float>, Eigen::TensorCwiseBinaryOp<Eigen::internal::scalar_difference_op<float const, float const>, ",
    "void Eigen::internal::EigenMetaKernel<Eigen::TensorEvaluator<Eigen::TensorAssignOp<Eigen::TensorMap<Eigen::Tensor<float, 1, 1, long>, 16, Eigen::MakePointer>, ",
    "Eigen::TensorMap<Eigen::Tensor<float const, 1, 1, long>, 16, Eigen::MakePointer> const> const, Eigen::GpuDevice>, long>(Eigen::TensorEvaluator<Eigen::TensorAssignOp<",
    // The commonest words of all.
    "unsigned long, unsigned int, unsigned short, unsigned char, signed char, long long, bool, __nv_bfloat16, __half2, __half, ",
    "std::, double const*, double*, float const*, float*, int const*, int*, const*, char*, ",
    "true, false, int, int, int, long, float, double, void ",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_one_stored_deflate_block() {
        assert!(DICTIONARY.len() < 65_535, "{}", DICTIONARY.len());
    }

    /// Frozen: if this fails, the dictionary changed and every v1 link is broken. Revert it.
    #[test]
    fn is_frozen() {
        assert_eq!((DICTIONARY.len(), super::super::link::crc32(DICTIONARY.as_bytes())), (6865, 0x6ad01f19));
    }
}
