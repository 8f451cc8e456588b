! The alltoall page's Fortran calls (OpenSHMEM 1.3 man page, "INCLUDE
! "mpp/shmem.fh""), continuation lines and all, in a Fortran version of
! the page's C example (each PE sends count elements to every PE, the
! value my_pe + pe; dest starts as 9999), for both element sizes, and
! the strided form with dst = 2, sst = 3. The page's synopsis passes
! "fIpSync" in its first call, a typo for pSync.
      PROGRAM A2A
      INCLUDE "mpp/shmem.fh"
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER dst, sst, nelems, PE_root, PE_start, logPE_stride, PE_size
      INTEGER pSync(SHMEM_ALLTOALL_SYNC_SIZE)
      INTEGER MAXP, COUNT
      PARAMETER (MAXP = 8, COUNT = 2)
      INTEGER*4 S4(3 * COUNT * MAXP), T4(2 * COUNT * MAXP)
      INTEGER*8 S8(3 * COUNT * MAXP), T8(2 * COUNT * MAXP)
      COMMON /A2/ S4, T4, S8, T8, pSync
      INTEGER ME, NP, PE, I, J, K
      INTEGER*8 EXP
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      IF (NP .GT. MAXP) CALL CHECKL('at most 8 PEs', .FALSE.)
      DO I = 1, SHMEM_ALLTOALL_SYNC_SIZE
         pSync(I) = SHMEM_SYNC_VALUE
      END DO
      PE_start = 0
      logPE_stride = 0
      PE_size = NP
      PE_root = 0
      DO K = 1, 4
!        contiguous (K = 1, 2) or dst = 2, sst = 3 (K = 3, 4)
         dst = 1
         sst = 1
         IF (K .GE. 3) THEN
            dst = 2
            sst = 3
         END IF
         nelems = COUNT
         DO I = 1, 3 * COUNT * MAXP
            S4(I) = -7
            S8(I) = -7
         END DO
         DO I = 1, 2 * COUNT * MAXP
            T4(I) = 9999
            T8(I) = 9999
         END DO
         DO PE = 0, NP - 1
            DO I = 0, COUNT - 1
               S4(1 + (PE * COUNT + I) * sst) = ME + PE
               S8(1 + (PE * COUNT + I) * sst) = ME + PE + 2_8**40
            END DO
         END DO
         CALL SHMEM_BARRIER_ALL()
         IF (K .EQ. 1) THEN
      CALL SHMEM_ALLTOALL32(T4, S4, nelems,
     & PE_start, logPE_stride, PE_size, pSync)
         ELSE IF (K .EQ. 2) THEN
      CALL SHMEM_ALLTOALL64(T8, S8, nelems,
     & PE_start, logPE_stride, PE_size, pSync)
         ELSE IF (K .EQ. 3) THEN
      CALL SHMEM_ALLTOALLS32(T4, S4, dst, sst, nelems,
     & PE_start, logPE_stride, PE_size, pSync)
         ELSE
      CALL SHMEM_ALLTOALLS64(T8, S8, dst, sst, nelems,
     & PE_start, logPE_stride, PE_size, pSync)
         END IF
         CALL SHMEM_BARRIER_ALL()
!        block of PE j lands at element j * COUNT, dst apart; the rest
!        of dest keeps 9999
         DO I = 0, 2 * COUNT * MAXP - 1
            EXP = 9999
            IF (MOD(I, dst) .EQ. 0 .AND. I / dst .LT. NP * COUNT) THEN
               J = (I / dst) / COUNT
               EXP = ME + J
               IF (MOD(K, 2) .EQ. 0) EXP = EXP + 2_8**40
            END IF
            IF (MOD(K, 2) .EQ. 1) THEN
               CALL CHECKI('alltoall(s)32 dest', INT(T4(I + 1), 8), EXP)
            ELSE
               CALL CHECKI('alltoall(s)64 dest', T8(I + 1), EXP)
            END IF
         END DO
      END DO
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END
