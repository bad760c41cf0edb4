// Playback as a frame number: from the <video> when there is one (requestVideoFrameCallback where the
// browser has it), else from a clock at the recording's fps over a blank canvas.

export interface Player {
  readonly frame: number;
  readonly playing: boolean;
  seek(frame: number): void;
  play(): void;
  pause(): void;
  onFrame(listener: (frame: number) => void): void;
  destroy(): void;
}

abstract class Base {
  protected listeners: Array<(frame: number) => void> = [];
  frame = 0;
  constructor(
    protected readonly fps: number,
    protected readonly frames: number,
  ) {}
  onFrame(listener: (frame: number) => void) {
    this.listeners.push(listener);
  }
  /** The last frame this player can show. */
  protected last(): number {
    return this.frames - 1;
  }
  protected emit(frame: number) {
    const f = Math.min(this.last(), Math.max(0, frame));
    if (f === this.frame) return;
    this.frame = f;
    for (const l of this.listeners) l(f);
  }
  protected force(frame: number) {
    this.frame = Math.min(this.last(), Math.max(0, frame));
    for (const l of this.listeners) l(this.frame);
  }
}

export class ClockPlayer extends Base implements Player {
  playing = false;
  private raf = 0;
  private t0 = 0;
  private f0 = 0;

  seek(frame: number) {
    this.force(frame);
    if (this.playing) {
      this.t0 = performance.now();
      this.f0 = this.frame;
    }
  }

  play() {
    if (this.playing) return;
    if (this.frame >= this.frames - 1) this.force(0);
    this.playing = true;
    this.t0 = performance.now();
    this.f0 = this.frame;
    const tick = (now: number) => {
      if (!this.playing) return;
      const f = this.f0 + Math.floor(((now - this.t0) * this.fps) / 1000);
      if (f >= this.frames - 1) {
        this.emit(this.frames - 1);
        this.pause();
        return;
      }
      this.emit(f);
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  pause() {
    this.playing = false;
    cancelAnimationFrame(this.raf);
    this.force(this.frame);
  }

  destroy() {
    this.pause();
    this.listeners = [];
  }
}

type FrameCallbackVideo = HTMLVideoElement & {
  requestVideoFrameCallback?: (cb: (now: number, meta: { mediaTime: number }) => void) => number;
  cancelVideoFrameCallback?: (handle: number) => void;
};

export class VideoPlayer extends Base implements Player {
  private handle = 0;
  private stopped = false;
  private readonly video: FrameCallbackVideo;

  constructor(video: HTMLVideoElement, fps: number, frames: number) {
    super(fps, frames);
    this.video = video;
    const toFrame = (t: number) => Math.floor(t * fps + 1e-3);
    if (this.video.requestVideoFrameCallback) {
      const onVideoFrame = (_now: number, meta: { mediaTime: number }) => {
        if (this.stopped) return;
        this.emit(toFrame(meta.mediaTime));
        this.handle = this.video.requestVideoFrameCallback!(onVideoFrame);
      };
      this.handle = this.video.requestVideoFrameCallback(onVideoFrame);
    } else {
      const poll = () => {
        if (this.stopped) return;
        this.emit(toFrame(this.video.currentTime));
        this.handle = requestAnimationFrame(poll);
      };
      this.handle = requestAnimationFrame(poll);
    }
    this.video.addEventListener('seeked', () => this.emit(toFrame(this.video.currentTime)));
    // Playing, pausing and reaching the end change no frame, but they change what the Play button says.
    for (const type of ['play', 'pause', 'ended']) this.video.addEventListener(type, () => this.force(this.frame));
  }

  /** Detections may go on after the video ends; seeking stops at the video's last frame, which it can show. */
  protected override last(): number {
    const d = this.video.duration;
    return Number.isFinite(d) && d > 0
      ? Math.max(0, Math.min(this.frames - 1, Math.ceil(d * this.fps - 1e-3) - 1))
      : this.frames - 1;
  }

  get playing() {
    return !this.video.paused && !this.video.ended;
  }

  seek(frame: number) {
    const f = Math.min(this.last(), Math.max(0, frame));
    // The middle of the frame, so rounding never lands on the previous one.
    this.video.currentTime = (f + 0.5) / this.fps;
    this.force(f);
  }

  play() {
    void this.video.play().catch(() => {});
  }
  pause() {
    this.video.pause();
  }

  destroy() {
    this.stopped = true;
    this.video.pause();
    if (this.video.cancelVideoFrameCallback) this.video.cancelVideoFrameCallback(this.handle);
    cancelAnimationFrame(this.handle);
    this.listeners = [];
  }
}
