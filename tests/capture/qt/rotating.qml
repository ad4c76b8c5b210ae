import QtQuick 2.0
Rectangle {
    width: 320; height: 240
    gradient: Gradient { GradientStop { position: 0.0; color: "steelblue" } GradientStop { position: 1.0; color: "orange" } }
    Rectangle {
        x: 100; y: 60; width: 120; height: 80; radius: 16; color: "#80ff0000"
        NumberAnimation on rotation { from: 0; to: 360; duration: 4000; loops: Animation.Infinite }
    }
    Text { x: 20; y: 180; text: "glreplay"; font.pixelSize: 24; color: "white" }
}
