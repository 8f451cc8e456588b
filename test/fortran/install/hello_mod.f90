program hello_mod
  use shmem
  implicit none
  integer(8), save :: a(1), b(1)
  call shmem_init()
  a = 42
  call shmem_put8(b, a, 1, shmem_my_pe())
  if (b(1) == 42) print '(A,I0,A,I0)', 'PE ', shmem_my_pe(), ' of ', shmem_n_pes()
  call shmem_finalize()
end program hello_mod
