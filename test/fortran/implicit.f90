! A program written for the other implementations' shmem.fh: free form,
! IMPLICIT NONE, and SHMEM_PE_ACCESSIBLE, SHMEM_ADDR_ACCESSIBLE and
! SHMEM_PTR called without declaring them, since OSSS's, Sandia
! OpenSHMEM's and Open MPI's shmem.fh declare them (the University of
! Houston tests are written so). It must compile, and the answers must be
! right: a symmetric COMMON word is accessible on every PE, a local one
! on none, and PE NP is out of range.
program implicit
  implicit none
  include 'shmem.fh'
  integer :: shmem_my_pe, shmem_n_pes
  integer*8 :: targ, notsym
  common /imp/ targ
  integer :: me, np, pe

  call shmem_init()
  me = shmem_my_pe()
  np = shmem_n_pes()
  targ = me
  notsym = me
  call shmem_barrier_all()

  do pe = 0, np - 1
    call checkl('SHMEM_PE_ACCESSIBLE', shmem_pe_accessible(pe))
    call checkl('SHMEM_ADDR_ACCESSIBLE of a COMMON word', &
                shmem_addr_accessible(targ, pe))
    call checkl('SHMEM_ADDR_ACCESSIBLE of a local', &
                .not. shmem_addr_accessible(notsym, pe))
  end do
  call checkl('SHMEM_PE_ACCESSIBLE(NP)', .not. shmem_pe_accessible(np))
  call checkl('SHMEM_PTR to my own COMMON word', shmem_ptr(targ, me) /= 0)

  call passed()
  call shmem_finalize()
end program implicit
