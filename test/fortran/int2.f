! SHMEM_INT2_<OP>_TO_ALL: the seven INTEGER*2 reductions SGI's and
! Cray's SHMEM had (beyond 1.4's list; Open MPI's Fortran has them too).
! Each runs over every PE and over the even PEs (logPE_stride 1), on
! values that use the sign and all 16 bits, and is checked against the
! operation done here; odd PEs outside the second set keep their dest.
      PROGRAM INT2
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER PR(SHMEM_REDUCE_SYNC_SIZE), PR2(SHMEM_REDUCE_SYNC_SIZE)
      INTEGER N, NW
      PARAMETER (N = 5, NW = SHMEM_REDUCE_MIN_WRKDATA_SIZE + N)
      INTEGER*2 S(N), D(N), W(NW)
      COMMON /C/ PR, PR2, S, D, W
      INTEGER ME, NP, I, P, OP, ST, LS, SZ, K
      INTEGER*2 E, V
      CHARACTER*4 NAME(7)
      DATA NAME /'AND ', 'OR  ', 'XOR ', 'MAX ', 'MIN ', 'SUM ',
     &     'PROD'/
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      DO I = 1, SHMEM_REDUCE_SYNC_SIZE
         PR(I) = SHMEM_SYNC_VALUE
         PR2(I) = SHMEM_SYNC_VALUE
      END DO
      DO K = 1, 2
!        K = 1: every PE; K = 2: the even PEs
         ST = 0
         LS = K - 1
         SZ = (NP + K - 1) / K
         DO OP = 1, 7
            DO I = 1, N
               S(I) = V(ME, I, OP)
               D(I) = -7
            END DO
            CALL SHMEM_BARRIER_ALL()
            IF (MOD(ME, K) .EQ. 0) THEN
               IF (OP .EQ. 1) CALL SHMEM_INT2_AND_TO_ALL(D, S, N, ST,
     &              LS, SZ, W, PR)
               IF (OP .EQ. 2) CALL SHMEM_INT2_OR_TO_ALL(D, S, N, ST,
     &              LS, SZ, W, PR2)
               IF (OP .EQ. 3) CALL SHMEM_INT2_XOR_TO_ALL(D, S, N, ST,
     &              LS, SZ, W, PR)
               IF (OP .EQ. 4) CALL SHMEM_INT2_MAX_TO_ALL(D, S, N, ST,
     &              LS, SZ, W, PR2)
               IF (OP .EQ. 5) CALL SHMEM_INT2_MIN_TO_ALL(D, S, N, ST,
     &              LS, SZ, W, PR)
               IF (OP .EQ. 6) CALL SHMEM_INT2_SUM_TO_ALL(D, S, N, ST,
     &              LS, SZ, W, PR2)
               IF (OP .EQ. 7) CALL SHMEM_INT2_PROD_TO_ALL(D, S, N, ST,
     &              LS, SZ, W, PR)
               DO I = 1, N
                  E = V(0, I, OP)
                  DO P = K, NP - 1, K
                     IF (OP .EQ. 1) E = IAND(E, V(P, I, OP))
                     IF (OP .EQ. 2) E = IOR(E, V(P, I, OP))
                     IF (OP .EQ. 3) E = IEOR(E, V(P, I, OP))
                     IF (OP .EQ. 4) E = MAX(E, V(P, I, OP))
                     IF (OP .EQ. 5) E = MIN(E, V(P, I, OP))
                     IF (OP .EQ. 6) E = E + V(P, I, OP)
                     IF (OP .EQ. 7) E = E * V(P, I, OP)
                  END DO
                  CALL CHECKI('INT2 '//TRIM(NAME(OP))//' reduction',
     &                 INT(D(I), 8), INT(E, 8))
                  CALL CHECKI('INT2 source kept', INT(S(I), 8),
     &                 INT(V(ME, I, OP), 8))
               END DO
            ELSE
               DO I = 1, N
                  CALL CHECKI('INT2 dest outside the set', INT(D(I), 8),
     &                 -7_8)
               END DO
            END IF
         END DO
      END DO
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END

!     PE P's element I for operation OP: bit patterns with the sign bit
!     set for the bitwise ones, small signed values that cannot overflow
!     16 bits for SUM (8 PEs) and PROD (factors -1, 1, 2 on 8 PEs).
      INTEGER*2 FUNCTION V(P, I, OP)
      INTEGER P, I, OP, T
      IF (OP .LE. 3) THEN
         T = IAND(IEOR(33825 * (I + 1), 4097 * P), 65535)
         IF (T .GE. 32768) T = T - 65536
         V = INT(T, 2)
      ELSE IF (OP .LE. 6) THEN
         V = INT(MOD(P * 37 + I * 11, 97) - 48, 2)
         IF (OP .EQ. 5 .AND. P .EQ. 1) V = -32768
         IF (OP .EQ. 4 .AND. P .EQ. 2) V = 32767
      ELSE
         V = INT(MOD(P + I, 3) - 1, 2)
         IF (V .EQ. 0) V = 2
      END IF
      END
