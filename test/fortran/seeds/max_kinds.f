! The max-reduction page's synopsis, every kind (SHMEM_INT4, INT8,
! REAL4, REAL8 and REAL16 _MAX_TO_ALL), called as its Example 2 does:
! three one-element reductions back to back with no synchronisation,
! alternating two pWrk/pSync pairs, which must equal one three-element
! reduction. Also the MIN of each kind over an odd-sized strided set.
      PROGRAM MAXK
      INCLUDE "mpp/shmem.fh"
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER pSync1(SHMEM_REDUCE_SYNC_SIZE)
      INTEGER pSync2(SHMEM_REDUCE_SYNC_SIZE)
      INTEGER NW
      PARAMETER (NW = SHMEM_REDUCE_MIN_WRKDATA_SIZE)
      INTEGER*4 I4S(3), I4T(3), I4W1(NW), I4W2(NW)
      INTEGER*8 I8S(3), I8T(3), I8W1(NW), I8W2(NW)
      REAL*4 R4S(3), R4T(3), R4W1(NW), R4W2(NW)
      REAL*8 R8S(3), R8T(3), R8W1(NW), R8W2(NW)
      REAL*16 R16S(3), R16T(3), R16W1(NW), R16W2(NW)
      COMMON /MK/ pSync1, pSync2, I4S, I4T, I4W1, I4W2, I8S, I8T, I8W1,
     &     I8W2, R4S, R4T, R4W1, R4W2, R8S, R8T, R8W1, R8W2,
     &     R16S, R16T, R16W1, R16W2
      INTEGER ME, NP, I, J, LAST
      INTEGER*8 V
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      DO I = 1, SHMEM_REDUCE_SYNC_SIZE
         pSync1(I) = SHMEM_SYNC_VALUE
         pSync2(I) = SHMEM_SYNC_VALUE
      END DO
!     element j of PE p: (p + 1) * j, negated for odd j, so the max of
!     j = 1, 3 comes from PE 0 and that of j = 2 from the last PE
      DO J = 1, 3
         V = (ME + 1) * J
         IF (MOD(J, 2) .EQ. 1) V = -V
         V = V * 2_8**33 / 2_8**33
         I4S(J) = INT(V, 4)
         I8S(J) = V * 2_8**32
         R4S(J) = REAL(V, 4) / 4
         R8S(J) = REAL(V, 8) / 8
         R16S(J) = REAL(V, 16) / 3
      END DO
      CALL SHMEM_BARRIER_ALL()
      DO J = 1, 3
         IF (MOD(J, 2) .EQ. 1) THEN
            CALL SHMEM_INT4_MAX_TO_ALL(I4T(J), I4S(J), 1, 0, 0, NP,
     &           I4W1, pSync1)
            CALL SHMEM_INT8_MAX_TO_ALL(I8T(J), I8S(J), 1, 0, 0, NP,
     &           I8W1, pSync1)
            CALL SHMEM_REAL4_MAX_TO_ALL(R4T(J), R4S(J), 1, 0, 0, NP,
     &           R4W1, pSync1)
            CALL SHMEM_REAL8_MAX_TO_ALL(R8T(J), R8S(J), 1, 0, 0, NP,
     &           R8W1, pSync1)
            CALL SHMEM_REAL16_MAX_TO_ALL(R16T(J), R16S(J), 1, 0, 0,
     &           NP, R16W1, pSync1)
         ELSE
            CALL SHMEM_INT4_MAX_TO_ALL(I4T(J), I4S(J), 1, 0, 0, NP,
     &           I4W2, pSync2)
            CALL SHMEM_INT8_MAX_TO_ALL(I8T(J), I8S(J), 1, 0, 0, NP,
     &           I8W2, pSync2)
            CALL SHMEM_REAL4_MAX_TO_ALL(R4T(J), R4S(J), 1, 0, 0, NP,
     &           R4W2, pSync2)
            CALL SHMEM_REAL8_MAX_TO_ALL(R8T(J), R8S(J), 1, 0, 0, NP,
     &           R8W2, pSync2)
            CALL SHMEM_REAL16_MAX_TO_ALL(R16T(J), R16S(J), 1, 0, 0,
     &           NP, R16W2, pSync2)
         END IF
      END DO
      DO J = 1, 3
         IF (MOD(J, 2) .EQ. 1) THEN
            V = -J
         ELSE
            V = NP * J
         END IF
         CALL CHECKI('INT4 max', INT(I4T(J), 8), V)
         CALL CHECKI('INT8 max', I8T(J), V * 2_8**32)
         CALL CHECKR('REAL4 max', DBLE(R4T(J)), DBLE(REAL(V, 4) / 4))
         CALL CHECKR('REAL8 max', R8T(J), REAL(V, 8) / 8)
         CALL CHECKL('REAL16 max', R16T(J) .EQ. REAL(V, 16) / 3)
      END DO
!     the whole array at once, over PEs 0, 2, 4, ... (a strided set);
!     the MIN of each kind
      CALL SHMEM_BARRIER_ALL()
      LAST = 2 * ((NP + 1) / 2 - 1)
      IF (MOD(ME, 2) .EQ. 0) THEN
         CALL SHMEM_INT4_MIN_TO_ALL(I4T, I4S, 3, 0, 1, (NP + 1) / 2,
     &        I4W1, pSync1)
         CALL SHMEM_INT8_MIN_TO_ALL(I8T, I8S, 3, 0, 1, (NP + 1) / 2,
     &        I8W2, pSync2)
         CALL SHMEM_REAL4_MIN_TO_ALL(R4T, R4S, 3, 0, 1, (NP + 1) / 2,
     &        R4W1, pSync1)
         CALL SHMEM_REAL8_MIN_TO_ALL(R8T, R8S, 3, 0, 1, (NP + 1) / 2,
     &        R8W2, pSync2)
         CALL SHMEM_REAL16_MIN_TO_ALL(R16T, R16S, 3, 0, 1,
     &        (NP + 1) / 2, R16W1, pSync1)
         DO J = 1, 3
            IF (MOD(J, 2) .EQ. 1) THEN
               V = -(LAST + 1) * J
            ELSE
               V = J
            END IF
            CALL CHECKI('INT4 min', INT(I4T(J), 8), V)
            CALL CHECKI('INT8 min', I8T(J), V * 2_8**32)
            CALL CHECKR('REAL4 min', DBLE(R4T(J)), DBLE(REAL(V, 4) / 4))
            CALL CHECKR('REAL8 min', R8T(J), REAL(V, 8) / 8)
            CALL CHECKL('REAL16 min', R16T(J) .EQ. REAL(V, 16) / 3)
         END DO
      END IF
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END
