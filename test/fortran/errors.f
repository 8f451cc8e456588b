! Bad input from Fortran: the message names the Fortran routine. The
! first argument picks the mistake; each ends the job with status 1.
      PROGRAM ERRS
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_N_PES
      INTEGER*8 A(4), B(4)
      INTEGER PS(SHMEM_BCAST_SYNC_SIZE), LOCK, ERR
      INTEGER*8 ADDR
      COMMON /E/ A, B, PS, LOCK
      CHARACTER*16 ARG
      CALL GET_COMMAND_ARGUMENT(1, ARG)
      CALL SHMEM_INIT()
      IF (ARG .EQ. 'pe') CALL SHMEM_PUT8(A, B, 1, SHMEM_N_PES() + 7)
      IF (ARG .EQ. 'nelems') CALL SHMEM_INTEGER_PUT(A, B, -3, 0)
      IF (ARG .EQ. 'nonsymm') CALL SHMEM_GET4(A, ERR, 1, 0)
      IF (ARG .EQ. 'root') CALL SHMEM_BROADCAST8(A, B, 1, 5, 0, 0,
     &     SHMEM_N_PES(), PS)
      IF (ARG .EQ. 'shpalloc') CALL SHPALLOC(ADDR, 0, ERR, 1)
      IF (ARG .EQ. 'unlock') CALL SHMEM_CLEAR_LOCK(LOCK)
      IF (ARG .EQ. 'dirty') THEN
         PS(4) = 42
         CALL SHMEM_BARRIER(0, 0, SHMEM_N_PES(), PS)
      END IF
      CALL SHMEM_FINALIZE()
      END
