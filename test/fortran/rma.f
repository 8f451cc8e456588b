! Fortran RMA: every put and get of the 1.4 interface, blocking, _NBI
! and strided, each to the next PE in a ring, checked element by element
! (including the ones that must stay untouched, which catches a wrong
! element size: SHMEM_PUT8 moves 64-bit elements, SHMEM_PUT4 32-bit).
      PROGRAM RMA
      INCLUDE 'mpp/shmem.fh'
      INTEGER SHMEM_MY_PE, SHMEM_N_PES
      INTEGER N
      PARAMETER (N = 6)
      INTEGER*4 S4(2*N), D4(2*N)
      INTEGER*8 S8(2*N), D8(2*N)
      COMPLEX*16 S16(N), D16(N)
      CHARACTER*12 SC, DC
      COMPLEX SX(N), DX(N)
      DOUBLE PRECISION SD(N), DD(N)
      INTEGER SI(N), DI(N)
      LOGICAL SL(N), DL(N)
      REAL SR(N), DR(N)
      COMMON /R/ S4, D4, S8, D8, S16, D16, SX, DX, SD, DD, SI, DI,
     &     SL, DL, SR, DR
      COMMON /RC/ SC, DC
      INTEGER ME, NP, NEXT, PREV, I, K
      CALL SHMEM_INIT()
      ME = SHMEM_MY_PE()
      NP = SHMEM_N_PES()
      NEXT = MOD(ME + 1, NP)
      PREV = MOD(ME + NP - 1, NP)

!     sized puts (K = 1 .. 5: PUT4, PUT8, PUT32, PUT64, PUT128), then
!     the same as gets (K = 6 .. 10), then _NBI (11 .. 20)
      DO K = 1, 20
         CALL FILL(ME)
         CALL SHMEM_BARRIER_ALL()
         IF (K .EQ. 1) CALL SHMEM_PUT4(D4, S4, N, NEXT)
         IF (K .EQ. 2) CALL SHMEM_PUT8(D8, S8, N, NEXT)
         IF (K .EQ. 3) CALL SHMEM_PUT32(D4, S4, N, NEXT)
         IF (K .EQ. 4) CALL SHMEM_PUT64(D8, S8, N, NEXT)
         IF (K .EQ. 5) CALL SHMEM_PUT128(D16, S16, N, NEXT)
         IF (K .EQ. 6) CALL SHMEM_GET4(D4, S4, N, PREV)
         IF (K .EQ. 7) CALL SHMEM_GET8(D8, S8, N, PREV)
         IF (K .EQ. 8) CALL SHMEM_GET32(D4, S4, N, PREV)
         IF (K .EQ. 9) CALL SHMEM_GET64(D8, S8, N, PREV)
         IF (K .EQ. 10) CALL SHMEM_GET128(D16, S16, N, PREV)
         IF (K .EQ. 11) CALL SHMEM_PUT4_NBI(D4, S4, N, NEXT)
         IF (K .EQ. 12) CALL SHMEM_PUT8_NBI(D8, S8, N, NEXT)
         IF (K .EQ. 13) CALL SHMEM_PUT32_NBI(D4, S4, N, NEXT)
         IF (K .EQ. 14) CALL SHMEM_PUT64_NBI(D8, S8, N, NEXT)
         IF (K .EQ. 15) CALL SHMEM_PUT128_NBI(D16, S16, N, NEXT)
         IF (K .EQ. 16) CALL SHMEM_GET4_NBI(D4, S4, N, PREV)
         IF (K .EQ. 17) CALL SHMEM_GET8_NBI(D8, S8, N, PREV)
         IF (K .EQ. 18) CALL SHMEM_GET32_NBI(D4, S4, N, PREV)
         IF (K .EQ. 19) CALL SHMEM_GET64_NBI(D8, S8, N, PREV)
         IF (K .EQ. 20) CALL SHMEM_GET128_NBI(D16, S16, N, PREV)
         CALL SHMEM_QUIET()
         CALL SHMEM_BARRIER_ALL()
         DO I = 1, 2 * N
            IF (MOD(K - 1, 5) .EQ. 0 .OR. MOD(K - 1, 5) .EQ. 2) THEN
               IF (I .LE. N) THEN
                  CALL CHECKI('sized 32-bit', INT(D4(I), 8),
     &                 INT(PREV * 1000 + I, 8))
               ELSE
                  CALL CHECKI('past 32-bit', INT(D4(I), 8), -1_8)
               END IF
            ELSE IF (MOD(K - 1, 5) .EQ. 1 .OR. MOD(K - 1, 5) .EQ. 3)
     &           THEN
               IF (I .LE. N) THEN
                  CALL CHECKI('sized 64-bit', D8(I),
     &                 PREV * 2_8**35 + I)
               ELSE
                  CALL CHECKI('past 64-bit', D8(I), -1_8)
               END IF
            ELSE IF (I .LE. N) THEN
               CALL CHECKL('sized 128-bit',
     &              D16(I) .EQ. DCMPLX(PREV, -I))
            END IF
         END DO
      END DO

!     typed and PUTMEM/GETMEM: K = 1 put, 2 get, 3 put_nbi, 4 get_nbi
      DO K = 1, 4
         CALL FILL(ME)
         CALL SHMEM_BARRIER_ALL()
         IF (K .EQ. 1) THEN
            CALL SHMEM_CHARACTER_PUT(DC, SC, 12, NEXT)
            CALL SHMEM_COMPLEX_PUT(DX, SX, N, NEXT)
            CALL SHMEM_DOUBLE_PUT(DD, SD, N, NEXT)
            CALL SHMEM_INTEGER_PUT(DI, SI, N, NEXT)
            CALL SHMEM_LOGICAL_PUT(DL, SL, N, NEXT)
            CALL SHMEM_REAL_PUT(DR, SR, N, NEXT)
            CALL SHMEM_PUTMEM(D4, S4, 4 * N, NEXT)
         ELSE IF (K .EQ. 2) THEN
            CALL SHMEM_CHARACTER_GET(DC, SC, 12, PREV)
            CALL SHMEM_COMPLEX_GET(DX, SX, N, PREV)
            CALL SHMEM_DOUBLE_GET(DD, SD, N, PREV)
            CALL SHMEM_INTEGER_GET(DI, SI, N, PREV)
            CALL SHMEM_LOGICAL_GET(DL, SL, N, PREV)
            CALL SHMEM_REAL_GET(DR, SR, N, PREV)
            CALL SHMEM_GETMEM(D4, S4, 4 * N, PREV)
         ELSE IF (K .EQ. 3) THEN
            CALL SHMEM_CHARACTER_PUT_NBI(DC, SC, 12, NEXT)
            CALL SHMEM_COMPLEX_PUT_NBI(DX, SX, N, NEXT)
            CALL SHMEM_DOUBLE_PUT_NBI(DD, SD, N, NEXT)
            CALL SHMEM_INTEGER_PUT_NBI(DI, SI, N, NEXT)
            CALL SHMEM_LOGICAL_PUT_NBI(DL, SL, N, NEXT)
            CALL SHMEM_REAL_PUT_NBI(DR, SR, N, NEXT)
            CALL SHMEM_PUTMEM_NBI(D4, S4, 4 * N, NEXT)
         ELSE
            CALL SHMEM_CHARACTER_GET_NBI(DC, SC, 12, PREV)
            CALL SHMEM_COMPLEX_GET_NBI(DX, SX, N, PREV)
            CALL SHMEM_DOUBLE_GET_NBI(DD, SD, N, PREV)
            CALL SHMEM_INTEGER_GET_NBI(DI, SI, N, PREV)
            CALL SHMEM_LOGICAL_GET_NBI(DL, SL, N, PREV)
            CALL SHMEM_REAL_GET_NBI(DR, SR, N, PREV)
            CALL SHMEM_GETMEM_NBI(D4, S4, 4 * N, PREV)
         END IF
         CALL SHMEM_QUIET()
         CALL SHMEM_BARRIER_ALL()
         CALL CHECKL('CHARACTER', DC .EQ. SC(1:5) // CHAR(65 + PREV)
     &        // SC(7:12))
         DO I = 1, N
            CALL CHECKL('COMPLEX', DX(I) .EQ. CMPLX(PREV, I))
            CALL CHECKR('DOUBLE', DD(I), PREV + I / 4D0)
            CALL CHECKI('INTEGER', INT(DI(I), 8), INT(PREV - I, 8))
            CALL CHECKL('LOGICAL', DL(I) .EQV.
     &           (MOD(PREV + I, 2) .EQ. 0))
            CALL CHECKR('REAL', DBLE(DR(I)), DBLE(REAL(PREV * I)))
            CALL CHECKI('PUTMEM', INT(D4(I), 8),
     &           INT(PREV * 1000 + I, 8))
         END DO
      END DO

!     strided, 3 elements (K = 1 IPUT, 2 IGET): sized ones from every
!     second source element to every third of dest, typed ones from
!     every second to every second
      DO K = 1, 2
         CALL FILL(ME)
         CALL SHMEM_BARRIER_ALL()
         IF (K .EQ. 1) THEN
            CALL SHMEM_IPUT4(D4, S4, 3, 2, 3, NEXT)
            CALL SHMEM_IPUT8(D8, S8, 3, 2, 3, NEXT)
            CALL SHMEM_IPUT128(D16, S16, 2, 2, 3, NEXT)
            CALL SHMEM_COMPLEX_IPUT(DX, SX, 2, 2, 3, NEXT)
            CALL SHMEM_DOUBLE_IPUT(DD, SD, 2, 2, 3, NEXT)
            CALL SHMEM_INTEGER_IPUT(DI, SI, 2, 2, 3, NEXT)
            CALL SHMEM_LOGICAL_IPUT(DL, SL, 2, 2, 3, NEXT)
            CALL SHMEM_REAL_IPUT(DR, SR, 2, 2, 3, NEXT)
         ELSE
            CALL SHMEM_IGET32(D4, S4, 3, 2, 3, PREV)
            CALL SHMEM_IGET64(D8, S8, 3, 2, 3, PREV)
            CALL SHMEM_IGET128(D16, S16, 2, 2, 3, PREV)
            CALL SHMEM_COMPLEX_IGET(DX, SX, 2, 2, 3, PREV)
            CALL SHMEM_DOUBLE_IGET(DD, SD, 2, 2, 3, PREV)
            CALL SHMEM_INTEGER_IGET(DI, SI, 2, 2, 3, PREV)
            CALL SHMEM_LOGICAL_IGET(DL, SL, 2, 2, 3, PREV)
            CALL SHMEM_REAL_IGET(DR, SR, 2, 2, 3, PREV)
         END IF
         CALL SHMEM_BARRIER_ALL()
         DO I = 1, 2 * N
            IF (MOD(I - 1, 3) .EQ. 0 .AND. I .LE. 7) THEN
               CALL CHECKI('IPUT4/IGET32', INT(D4(I), 8),
     &              INT(PREV * 1000 + 1 + 2 * ((I - 1) / 3), 8))
               CALL CHECKI('IPUT8/IGET64', D8(I),
     &              PREV * 2_8**35 + 1 + 2 * ((I - 1) / 3))
            ELSE
               CALL CHECKI('IPUT4/IGET32 gap', INT(D4(I), 8), -1_8)
               CALL CHECKI('IPUT8/IGET64 gap', D8(I), -1_8)
            END IF
         END DO
         DO I = 1, 5, 2
            CALL CHECKL('IPUT128', D16(I) .EQ. DCMPLX(PREV, -I))
            CALL CHECKL('COMPLEX_IPUT', DX(I) .EQ. CMPLX(PREV, I))
            CALL CHECKR('DOUBLE_IPUT', DD(I), PREV + I / 4D0)
            CALL CHECKI('INTEGER_IPUT', INT(DI(I), 8),
     &           INT(PREV - I, 8))
            CALL CHECKL('LOGICAL_IPUT', DL(I) .EQV.
     &           (MOD(PREV + I, 2) .EQ. 0))
            CALL CHECKR('REAL_IPUT', DBLE(DR(I)),
     &           DBLE(REAL(PREV * I)))
            CALL CHECKL('IPUT128 gap', D16(I + 1) .EQ. (0, 0))
            CALL CHECKI('INTEGER_IPUT gap', INT(DI(I + 1), 8), -1_8)
         END DO
      END DO
      CALL PASSED
      CALL SHMEM_FINALIZE()
      END

!     Sources from this PE's number, destinations -1 (or blanks)
      SUBROUTINE FILL(ME)
      INTEGER ME
      INTEGER N
      PARAMETER (N = 6)
      INTEGER*4 S4(2*N), D4(2*N)
      INTEGER*8 S8(2*N), D8(2*N)
      COMPLEX*16 S16(N), D16(N)
      CHARACTER*12 SC, DC
      COMPLEX SX(N), DX(N)
      DOUBLE PRECISION SD(N), DD(N)
      INTEGER SI(N), DI(N)
      LOGICAL SL(N), DL(N)
      REAL SR(N), DR(N)
      COMMON /R/ S4, D4, S8, D8, S16, D16, SX, DX, SD, DD, SI, DI,
     &     SL, DL, SR, DR
      COMMON /RC/ SC, DC
      INTEGER I
      DO I = 1, 2 * N
         S4(I) = ME * 1000 + I
         D4(I) = -1
         S8(I) = ME * 2_8**35 + I
         D8(I) = -1
      END DO
      DO I = 1, N
         S16(I) = DCMPLX(ME, -I)
         D16(I) = (0, 0)
         SX(I) = CMPLX(ME, I)
         DX(I) = (0, 0)
         SD(I) = ME + I / 4D0
         DD(I) = -1
         SI(I) = ME - I
         DI(I) = -1
         SL(I) = MOD(ME + I, 2) .EQ. 0
         DL(I) = .FALSE.
         SR(I) = ME * I
         DR(I) = -1
      END DO
      SC = 'hello ' // 'world!'
      SC(6:6) = CHAR(65 + ME)
      DC = ' '
      END
