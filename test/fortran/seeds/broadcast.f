! The broadcast page's Fortran calls, as its synopsis writes them
! (OpenSHMEM 1.4, content/shmem_broadcast.tex):
!   INTEGER nelems, PE_root, PE_start, logPE_stride, PE_size
!   INTEGER pSync(SHMEM_BCAST_SYNC_SIZE)
!   CALL SHMEM_BROADCAST4(dest, source, nelems, PE_root, PE_start,
!                         logPE_stride, PE_size, pSync)   (and 8, 32, 64)
! from a non-zero root over a strided active set: the even PEs
! (PE_start 0, logPE_stride 1), root the set's second member when it
! has one. SHMEM_BROADCAST4 and 32 move 32-bit elements, 8 and 64
! 64-bit ones; the root's dest stays as it was.
      PROGRAM BCAST
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER nelems, PE_root, PE_start, logPE_stride, PE_size
      INTEGER pSync(SHMEM_BCAST_SYNC_SIZE)
      INTEGER*4 S4(8), D4(8)
      INTEGER*8 S8(8), D8(8)
      COMMON /BC/ S4, D4, S8, D8, pSync
      INTEGER ME, NP, I, ROOTPE, K
      INTEGER*8 EXP4, EXP8
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      DO I = 1, SHMEM_BCAST_SYNC_SIZE
         pSync(I) = SHMEM_SYNC_VALUE
      END DO
      PE_start = 0
      logPE_stride = 1
      PE_size = (NP + 1) / 2
      PE_root = MIN(1, PE_size - 1)
      ROOTPE = PE_start + PE_root * 2**logPE_stride
      nelems = 5
      DO K = 1, 4
         DO I = 1, 8
            S4(I) = ME * 100 + I + K
            D4(I) = -1
            S8(I) = ME * 10000000000_8 + I + K
            D8(I) = -1
         END DO
         CALL SHMEM_BARRIER_ALL()
         IF (MOD(ME, 2) .EQ. 0) THEN
            IF (K .EQ. 1) CALL SHMEM_BROADCAST4(D4, S4, nelems, PE_root,
     &           PE_start, logPE_stride, PE_size, pSync)
            IF (K .EQ. 2) CALL SHMEM_BROADCAST8(D8, S8, nelems, PE_root,
     &           PE_start, logPE_stride, PE_size, pSync)
            IF (K .EQ. 3) CALL SHMEM_BROADCAST32(D4, S4, nelems,
     &           PE_root, PE_start, logPE_stride, PE_size,pSync)
            IF (K .EQ. 4) CALL SHMEM_BROADCAST64(D8, S8, nelems,
     &           PE_root, PE_start, logPE_stride, PE_size,pSync)
         END IF
         CALL SHMEM_BARRIER_ALL()
         DO I = 1, 8
            EXP4 = -1
            EXP8 = -1
            IF (MOD(ME, 2) .EQ. 0 .AND. ME .NE. ROOTPE
     &          .AND. I .LE. nelems) THEN
               EXP4 = ROOTPE * 100 + I + K
               EXP8 = ROOTPE * 10000000000_8 + I + K
            END IF
            IF (K .EQ. 1 .OR. K .EQ. 3) THEN
               CALL CHECKI('broadcast 32-bit dest', INT(D4(I), 8), EXP4)
               CALL CHECKI('broadcast 64-bit dest (untouched)',
     &              D8(I), -1_8)
            ELSE
               CALL CHECKI('broadcast 64-bit dest', D8(I), EXP8)
               CALL CHECKI('broadcast 32-bit dest (untouched)',
     &              INT(D4(I), 8), -1_8)
            END IF
         END DO
      END DO
      DO I = 1, SHMEM_BCAST_SYNC_SIZE
         CALL CHECKI('pSync restored', INT(pSync(I), 8),
     &        INT(SHMEM_SYNC_VALUE, 8))
      END DO
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END
