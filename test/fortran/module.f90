! The shmem module (use shmem): explicit interfaces, ISO_C_BINDING kinds.
! A free-form program that moves data with the any-type routines
! (TYPE(*), DIMENSION(*): arrays and array elements, and scalars through
! the scalar twins), the typed atomics and reductions, a broadcast and a
! lock, and takes a SHPALLOC block through C_F_POINTER instead of a Cray
! pointer.
program modtest
  use shmem
  use, intrinsic :: iso_c_binding
  implicit none
  integer(c_int64_t), save :: buf(4), dst(4)
  integer(c_int32_t), save :: counter = 0
  integer(c_int), save :: lock = 0, psync(SHMEM_BCAST_SYNC_SIZE) = SHMEM_SYNC_VALUE
  integer(c_int), save :: rsync(SHMEM_REDUCE_SYNC_SIZE) = SHMEM_SYNC_VALUE
  real(c_double), save :: x(3), y(3), wrk(SHMEM_REDUCE_MIN_WRKDATA_SIZE)
  integer(c_intptr_t) :: addr
  integer(c_int), pointer :: blk(:)
  integer(c_int) :: me, np, next, prev, err, i, old
  character(len=SHMEM_MAX_NAME_LEN) :: name
  real(c_double), save :: s1, s2
  integer(c_int64_t), save :: sc
  character(len=8), save :: str

  call shmem_init()
  me = shmem_my_pe()
  np = shmem_n_pes()
  next = mod(me + 1, np)
  prev = mod(me + np - 1, np)

  buf = [(int(me, c_int64_t) * 10 + i, i = 1, 4)]
  dst = -1
  call shmem_barrier_all()
  call shmem_put8(dst, buf, 3, next)
  call shmem_barrier_all()
  do i = 1, 3
    call checki('put8 through the module', dst(i), int(prev, 8) * 10 + i)
  end do
  call checki('put8 past nelems', dst(4), -1_8)
  call shmem_get64(dst(4), buf(2), 1, next)
  call checki('get64 of an array element', dst(4), int(next, 8) * 10 + 2)

  old = shmem_int4_fadd(counter, me + 1, 0)
  call shmem_int4_inc(counter, 0)
  call shmem_barrier_all()
  if (me == 0) call checki('int4 fadd+inc', int(counter, 8), int(np * (np + 1) / 2 + np, 8))

  x = [real(me, c_double), 1.0_c_double, -real(me, c_double)]
  call shmem_barrier_all()
  call shmem_real8_sum_to_all(y, x, 3, 0, 0, np, wrk, rsync)
  call checkr('real8 sum', y(1), real(np * (np - 1) / 2, 8))
  call checkr('real8 sum of ones', y(2), real(np, 8))

  call shmem_broadcast64(dst, buf, 4, 0, 0, 0, np, psync)
  if (me /= 0) call checki('broadcast64', dst(4), 4_8)

  call shmem_set_lock(lock)
  old = shmem_int4_fetch(counter, 0)
  call shmem_int4_set(counter, old + 100, 0)
  call shmem_clear_lock(lock)
  call shmem_barrier_all()
  if (me == 0) call checki('counter under the lock', int(counter, 8), &
                           int(np * (np + 1) / 2 + np + 100 * np, 8))

  ! scalars, as the SHMEM pages pass them
  s1 = me
  sc = -1
  str = 'PE ?'
  call shmem_barrier_all()
  call shmem_real8_max_to_all(s2, s1, 1, 0, 0, np, wrk, rsync)
  call checkr('scalar real8 max', s2, real(np - 1, 8))
  call shmem_put8(sc, int(me, c_int64_t), 1, next)
  call shmem_character_put(str(4:4), achar(iachar('a') + me), 1, next)
  call shmem_barrier_all()
  call checki('scalar put8', sc, int(prev, 8))
  call checkl('character put of one character', str == 'PE ' // achar(iachar('a') + prev))
  call shmem_barrier_all()
  call shmem_broadcast64(sc, buf(1), 1, 0, 0, 0, np, psync)
  if (me /= 0) call checki('broadcast64 of an array element', sc, 1_8)

  call shpalloc(addr, 16, err, 0)
  call checki('shpalloc', int(err, 8), 0_8)
  call c_f_pointer(transfer(addr, c_null_ptr), blk, [16])
  blk = me
  call shmem_barrier_all()
  call shmem_integer_put(blk(5:8), [(me + 1000, i = 1, 4)], 4, next)
  call shmem_barrier_all()
  call checki('shpalloc block via c_f_pointer', int(blk(6), 8), int(prev + 1000, 8))
  call checki('shpalloc block untouched', int(blk(9), 8), int(me, 8))
  call shpdeallc(addr, err, 0)
  call checki('shpdeallc', int(err, 8), 0_8)

  call checkl('pe_accessible', shmem_pe_accessible(next))
  call checkl('shmem_ptr', shmem_ptr(buf, next) /= 0)
  call shmem_info_get_name(name)
  call checkl('info_get_name', name == SHMEM_VENDOR_STRING)
  call passed
  call shmem_finalize()
end program modtest
