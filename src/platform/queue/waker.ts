/**
 * Lets a worker loop sleep between fetches that found nothing, until its poll interval passes or
 * new work in this process wakes it. A wake that comes before the sleep is not lost.
 */
export class Waker {
  private woken = false;
  private endSleep = () => {};

  wake(): void {
    this.woken = true;
    this.endSleep();
  }

  async sleep(ms: number): Promise<void> {
    if (!this.woken) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.endSleep = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.endSleep = () => {};
    }
    this.woken = false;
  }
}
