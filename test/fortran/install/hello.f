      PROGRAM HELLO
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER*8 A(2), B(2)
      COMMON /H/ A, B
      CALL SHMEM_INIT()
      A(1) = 42
      CALL SHMEM_PUT8(B, A, 1, SHMEM_MY_PE())
      CALL SHMEM_PUT8(B(2), A, 1, SHMEM_MY_PE())
      IF (B(1) .EQ. 42) PRINT '(A,I0,A,I0)', 'PE ', SHMEM_MY_PE(),
     &     ' of ', SHMEM_N_PES()
      CALL SHMEM_FINALIZE()
      END
