! Fortran collectives besides the seeds': SHMEM_COLLECT4/8/32/64,
! SHMEM_FCOLLECT4/8/32/64, SHMEM_BARRIER over a strided set, and every
! *_TO_ALL operator of every kind (INT4, INT8: AND OR XOR MAX MIN SUM
! PROD; REAL4, REAL8, REAL16: MAX MIN SUM PROD; COMP4, COMP8: SUM PROD).
      PROGRAM COLL
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER PS(SHMEM_COLLECT_SYNC_SIZE), PR(SHMEM_REDUCE_SYNC_SIZE)
      INTEGER PB(SHMEM_BARRIER_SYNC_SIZE)
      INTEGER NW
      PARAMETER (NW = SHMEM_REDUCE_MIN_WRKDATA_SIZE)
      INTEGER*4 S4(8), D4(64)
      INTEGER*8 S8(8), D8(64)
      INTEGER*4 I4S(2), I4D(2), I4W(NW)
      INTEGER*8 I8S(2), I8D(2), I8W(NW)
      REAL*4 R4S(2), R4D(2), R4W(NW)
      REAL*8 R8S(2), R8D(2), R8W(NW)
      REAL*16 QS(2), QD(2), QW(NW)
      COMPLEX*8 C4S(2), C4D(2), C4W(NW)
      COMPLEX*16 C8S(2), C8D(2), C8W(NW)
      COMMON /C/ PS, PR, PB, S4, D4, S8, D8, I4S, I4D, I4W, I8S, I8D,
     &     I8W, R4S, R4D, R4W, R8S, R8D, R8W, QS, QD, QW, C4S, C4D, C4W,
     &     C8S, C8D, C8W
      INTEGER ME, NP, I, J, K, P, POS, OP
      INTEGER*8 E, A
      REAL*8 RE
      COMPLEX*16 CE
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      DO I = 1, SHMEM_COLLECT_SYNC_SIZE
         PS(I) = SHMEM_SYNC_VALUE
         PR(I) = SHMEM_SYNC_VALUE
         PB(I) = SHMEM_SYNC_VALUE
      END DO

!     collect: PE p contributes p + 1 elements; fcollect: 3 each
      DO K = 1, 8
         DO I = 1, 8
            S4(I) = ME * 100 + I
            S8(I) = ME * 2_8**36 + I
         END DO
         DO I = 1, 64
            D4(I) = -1
            D8(I) = -1
         END DO
         CALL SHMEM_BARRIER_ALL()
         IF (K .EQ. 1) CALL SHMEM_COLLECT4(D4, S4, ME + 1, 0, 0, NP, PS)
         IF (K .EQ. 2) CALL SHMEM_COLLECT8(D8, S8, ME + 1, 0, 0, NP, PS)
         IF (K .EQ. 3) CALL SHMEM_COLLECT32(D4, S4, ME + 1, 0, 0, NP,
     &        PS)
         IF (K .EQ. 4) CALL SHMEM_COLLECT64(D8, S8, ME + 1, 0, 0, NP,
     &        PS)
         IF (K .EQ. 5) CALL SHMEM_FCOLLECT4(D4, S4, 3, 0, 0, NP, PS)
         IF (K .EQ. 6) CALL SHMEM_FCOLLECT8(D8, S8, 3, 0, 0, NP, PS)
         IF (K .EQ. 7) CALL SHMEM_FCOLLECT32(D4, S4, 3, 0, 0, NP, PS)
         IF (K .EQ. 8) CALL SHMEM_FCOLLECT64(D8, S8, 3, 0, 0, NP, PS)
         CALL SHMEM_BARRIER_ALL()
         POS = 0
         DO P = 0, NP - 1
            J = P + 1
            IF (K .GE. 5) J = 3
            DO I = 1, J
               POS = POS + 1
               IF (MOD(K, 2) .EQ. 1) THEN
                  CALL CHECKI('COLLECT/FCOLLECT 32-bit',
     &                 INT(D4(POS), 8), INT(P * 100 + I, 8))
               ELSE
                  CALL CHECKI('COLLECT/FCOLLECT 64-bit', D8(POS),
     &                 P * 2_8**36 + I)
               END IF
            END DO
         END DO
         IF (MOD(K, 2) .EQ. 1) THEN
            CALL CHECKI('past the 32-bit result', INT(D4(POS + 1), 8),
     &           -1_8)
            CALL CHECKI('64-bit dest untouched', D8(1), -1_8)
         ELSE
            CALL CHECKI('past the 64-bit result', D8(POS + 1), -1_8)
            CALL CHECKI('32-bit dest untouched', INT(D4(1), 8), -1_8)
         END IF
      END DO

!     SHMEM_BARRIER over the odd PEs
      IF (MOD(ME, 2) .EQ. 1) CALL SHMEM_BARRIER(1, 1, NP / 2, PB)

!     reductions: element 1 of PE p is p + 1, element 2 is 2 - p
!     (OP 1..7: AND OR XOR MAX MIN SUM PROD)
      DO OP = 1, 7
         DO I = 1, 2
            IF (I .EQ. 1) THEN
               A = ME + 1
            ELSE
               A = 2 - ME
            END IF
            I4S(I) = INT(A, 4)
            I8S(I) = A * 2_8**32 + 1
            R4S(I) = REAL(A, 4)
            R8S(I) = REAL(A, 8)
            QS(I) = REAL(A, 16)
            C4S(I) = CMPLX(A, 1)
            C8S(I) = DCMPLX(A, -1)
         END DO
         CALL SHMEM_BARRIER_ALL()
         IF (OP .EQ. 1) THEN
            CALL SHMEM_INT4_AND_TO_ALL(I4D, I4S, 2, 0, 0, NP, I4W, PR)
            CALL SHMEM_INT8_AND_TO_ALL(I8D, I8S, 2, 0, 0, NP, I8W, PR)
         ELSE IF (OP .EQ. 2) THEN
            CALL SHMEM_INT4_OR_TO_ALL(I4D, I4S, 2, 0, 0, NP, I4W, PR)
            CALL SHMEM_INT8_OR_TO_ALL(I8D, I8S, 2, 0, 0, NP, I8W, PR)
         ELSE IF (OP .EQ. 3) THEN
            CALL SHMEM_INT4_XOR_TO_ALL(I4D, I4S, 2, 0, 0, NP, I4W, PR)
            CALL SHMEM_INT8_XOR_TO_ALL(I8D, I8S, 2, 0, 0, NP, I8W, PR)
         ELSE IF (OP .EQ. 4) THEN
            CALL SHMEM_INT4_MAX_TO_ALL(I4D, I4S, 2, 0, 0, NP, I4W, PR)
            CALL SHMEM_INT8_MAX_TO_ALL(I8D, I8S, 2, 0, 0, NP, I8W, PR)
            CALL SHMEM_REAL4_MAX_TO_ALL(R4D, R4S, 2, 0, 0, NP, R4W, PR)
            CALL SHMEM_REAL8_MAX_TO_ALL(R8D, R8S, 2, 0, 0, NP, R8W, PR)
            CALL SHMEM_REAL16_MAX_TO_ALL(QD, QS, 2, 0, 0, NP, QW, PR)
         ELSE IF (OP .EQ. 5) THEN
            CALL SHMEM_INT4_MIN_TO_ALL(I4D, I4S, 2, 0, 0, NP, I4W, PR)
            CALL SHMEM_INT8_MIN_TO_ALL(I8D, I8S, 2, 0, 0, NP, I8W, PR)
            CALL SHMEM_REAL4_MIN_TO_ALL(R4D, R4S, 2, 0, 0, NP, R4W, PR)
            CALL SHMEM_REAL8_MIN_TO_ALL(R8D, R8S, 2, 0, 0, NP, R8W, PR)
            CALL SHMEM_REAL16_MIN_TO_ALL(QD, QS, 2, 0, 0, NP, QW, PR)
         ELSE IF (OP .EQ. 6) THEN
            CALL SHMEM_INT4_SUM_TO_ALL(I4D, I4S, 2, 0, 0, NP, I4W, PR)
            CALL SHMEM_INT8_SUM_TO_ALL(I8D, I8S, 2, 0, 0, NP, I8W, PR)
            CALL SHMEM_REAL4_SUM_TO_ALL(R4D, R4S, 2, 0, 0, NP, R4W, PR)
            CALL SHMEM_REAL8_SUM_TO_ALL(R8D, R8S, 2, 0, 0, NP, R8W, PR)
            CALL SHMEM_REAL16_SUM_TO_ALL(QD, QS, 2, 0, 0, NP, QW, PR)
            CALL SHMEM_COMP4_SUM_TO_ALL(C4D, C4S, 2, 0, 0, NP, C4W, PR)
            CALL SHMEM_COMP8_SUM_TO_ALL(C8D, C8S, 2, 0, 0, NP, C8W, PR)
         ELSE
            CALL SHMEM_INT4_PROD_TO_ALL(I4D, I4S, 2, 0, 0, NP, I4W, PR)
            CALL SHMEM_INT8_PROD_TO_ALL(I8D, I8S, 2, 0, 0, NP, I8W, PR)
            CALL SHMEM_REAL4_PROD_TO_ALL(R4D, R4S, 2, 0, 0, NP, R4W,
     &           PR)
            CALL SHMEM_REAL8_PROD_TO_ALL(R8D, R8S, 2, 0, 0, NP, R8W,
     &           PR)
            CALL SHMEM_REAL16_PROD_TO_ALL(QD, QS, 2, 0, 0, NP, QW, PR)
            CALL SHMEM_COMP4_PROD_TO_ALL(C4D, C4S, 2, 0, 0, NP, C4W,
     &           PR)
            CALL SHMEM_COMP8_PROD_TO_ALL(C8D, C8S, 2, 0, 0, NP, C8W,
     &           PR)
         END IF
!        the expected values, folded here PE by PE
         DO I = 1, 2
            DO P = 0, NP - 1
               IF (I .EQ. 1) THEN
                  A = P + 1
               ELSE
                  A = 2 - P
               END IF
               IF (P .EQ. 0) THEN
                  E = A
                  CE = DCMPLX(A, -1)
               ELSE IF (OP .EQ. 1) THEN
                  E = IAND(E, A)
               ELSE IF (OP .EQ. 2) THEN
                  E = IOR(E, A)
               ELSE IF (OP .EQ. 3) THEN
                  E = IEOR(E, A)
               ELSE IF (OP .EQ. 4) THEN
                  E = MAX(E, A)
               ELSE IF (OP .EQ. 5) THEN
                  E = MIN(E, A)
               ELSE IF (OP .EQ. 6) THEN
                  E = E + A
                  CE = CE + DCMPLX(A, -1)
               ELSE
                  E = E * A
                  CE = CE * DCMPLX(A, -1)
               END IF
            END DO
            CALL CHECKI('INT4 reduction', INT(I4D(I), 8), E)
            IF (OP .LE. 3) THEN
!              the bitwise ones on A * 2**32 + 1: high and low halves
               A = 1
               IF (OP .EQ. 3) A = MOD(NP, 2)
               CALL CHECKI('INT8 bitwise reduction', I8D(I),
     &              E * 2_8**32 + A)
            ELSE IF (OP .EQ. 4 .OR. OP .EQ. 5) THEN
               CALL CHECKI('INT8 reduction', I8D(I), E * 2_8**32 + 1)
            ELSE IF (OP .EQ. 6) THEN
               CALL CHECKI('INT8 sum', I8D(I), E * 2_8**32 + NP)
            ELSE
!              the product's low 32 bits: 1 (every factor is 1 mod 2**32)
               CALL CHECKI('INT8 product mod 2**32', IAND(I8D(I),
     &              2_8**32 - 1), 1_8)
            END IF
            IF (OP .GE. 4) THEN
               RE = DBLE(E)
               CALL CHECKR('REAL4 reduction', DBLE(R4D(I)), RE)
               CALL CHECKR('REAL8 reduction', R8D(I), RE)
               CALL CHECKL('REAL16 reduction', QD(I) .EQ. REAL(E, 16))
            END IF
            IF (OP .GE. 6) THEN
               CALL CHECKL('COMP8 reduction', C8D(I) .EQ. CE)
               CALL CHECKL('COMP4 reduction',
     &              C4D(I) .EQ. CMPLX(DBLE(CE), -DIMAG(CE)))
            END IF
         END DO
      END DO
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END
