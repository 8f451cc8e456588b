! Symmetric data in Fortran (free form, INCLUDE 'shmem.fh'): a COMMON
! block, SAVEd variables of the main program and of a subroutine, and
! module variables, each initialised (.data) and not (.bss), are targets
! of puts, gets and atomics on every PE. Built twice, as a PIE and not.
module symdata
  implicit none
  integer :: mod_bss(8)
  integer*8 :: mod_data(8) = 7
end module symdata

program symm
  use symdata
  implicit none
  include 'shmem.fh'
  integer :: cb(8)
  real*8 :: cd(8)
  common /blk/ cb, cd
  integer, save :: sv_bss(8)
  integer, save :: sv_data(8) = -5
  integer :: me, np, next, prev, i, k
  integer*8 :: old
  integer :: shmem_my_pe, shmem_n_pes
  integer*8 :: shmem_int8_fadd

  call shmem_init()
  me = shmem_my_pe()
  np = shmem_n_pes()
  next = mod(me + 1, np)
  prev = mod(me + np - 1, np)
  cb = -1
  cd = -1
  sv_bss = -1
  mod_bss = -1
  call shmem_barrier_all()

  call shmem_integer_put(cb, (/ (me * 10 + i, i = 1, 8) /), 8, next)
  call shmem_double_put(cd, (/ (me + i / 8d0, i = 1, 8) /), 8, next)
  call shmem_integer_put(sv_bss, (/ (me * 100 + i, i = 1, 8) /), 8, next)
  call shmem_integer_put(mod_bss, (/ (me * 1000 + i, i = 1, 8) /), 8, next)
  call shmem_int4_add(sv_data(3), me + 1, 0)
  old = shmem_int8_fadd(mod_data(8), int(me + 1, 8), 0)
  call local_saved(me, next)
  call shmem_barrier_all()
  do i = 1, 8
    call checki('COMMON integer', int(cb(i), 8), int(prev * 10 + i, 8))
    call checkr('COMMON double', cd(i), prev + i / 8d0)
    call checki('SAVE (bss)', int(sv_bss(i), 8), int(prev * 100 + i, 8))
    call checki('module (bss)', int(mod_bss(i), 8), int(prev * 1000 + i, 8))
  end do
  if (me == 0) then
    call checki('SAVE (data) atomic sum', int(sv_data(3), 8), int(-5 + np * (np + 1) / 2, 8))
    call checki('module (data) atomic sum', mod_data(8), int(7 + np * (np + 1) / 2, 8))
  end if
  k = 0
  call shmem_integer_get(k, sv_data(1), 1, next)
  call checki('get of SAVE (data)', int(k, 8), -5_8)
  call local_check(prev)
  call passed
  call shmem_finalize()
end program symm

! A SAVEd local of a subroutine: symmetric too (static storage).
subroutine local_saved(me, next)
  implicit none
  include 'shmem.fh'
  integer :: me, next
  integer, save :: loc(4) = 0
  call shmem_int4_set(loc(2), 50 + me, next)
  call shmem_quiet()
  return
entry local_check(me)
  call shmem_barrier_all()
  call checki('subroutine SAVE', int(loc(2), 8), int(50 + me, 8))
  call checki('subroutine SAVE untouched', int(loc(1), 8), 0_8)
end subroutine local_saved
