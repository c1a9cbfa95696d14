import jsQR from 'jsqr';
import { useEffect, useRef } from 'react';

/**
 * The tablet's camera reading a worker's QR code (issue 40, decision 0032): the video is drawn on a canvas four
 * times a second and decoded by jsQR; the first code of the portal's form is handed over once, and the camera is
 * released when the scanner closes. Nothing of the picture leaves the tablet.
 */
export function Scanner({ label, onCode }: { label: string; onCode: (code: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let done = false;
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d', { willReadFrequently: true });
    const look = () => {
      const element = video.current;
      if (!done && element && context && element.videoWidth > 0) {
        canvas.width = element.videoWidth;
        canvas.height = element.videoHeight;
        context.drawImage(element, 0, 0);
        const found = jsQR(
          context.getImageData(0, 0, canvas.width, canvas.height).data,
          canvas.width,
          canvas.height,
        );
        if (found?.data.startsWith('jornada-kiosk:')) {
          done = true;
          onCode(found.data);
          return;
        }
      }
      timer = window.setTimeout(look, 250);
    };
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'user' }, audio: false })
      .then((opened) => {
        stream = opened;
        if (video.current) {
          video.current.srcObject = opened;
          void video.current.play();
        }
        look();
      })
      .catch(() => undefined);
    return () => {
      done = true;
      window.clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [onCode]);
  return <video ref={video} className="kiosk-camera" aria-label={label} muted playsInline />;
}
